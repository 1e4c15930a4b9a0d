import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonical-json';

/** The recursive definition the iterative one replaces: stored digests were made with it. */
function recursive(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((key) => [key, sorted((v as Record<string, unknown>)[key])]),
    );
  };
  return JSON.stringify(sorted(value));
}

describe('canonicalJson', () => {
  it('writes what the recursive definition wrote, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(recursive(value));
      }),
      { numRuns: 2000, seed: 39 },
    );
    const odd = {
      '10': 1,
      '9': 2,
      '01': 3,
      b: undefined,
      a: [undefined, () => 1, 1, -0],
      c: { z: 1, y: [2, { x: null }] },
      d: new Date(0),
      e: 'é"\n',
    };
    expect(canonicalJson(odd)).toBe(recursive(odd));
  });

  it('hashes a value nested 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = { leaf: 1 };
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? { d: deep } : [deep];
    const text = canonicalJson(deep);
    expect(text.length).toBeGreaterThan(300_000);
    expect(text.endsWith(']}]}')).toBe(true);
  });

  it('writes a long array without spreading it into arguments', () => {
    expect(canonicalJson(Array.from({ length: 300_000 }, () => 1)).length).toBe(600_001);
  });
});
