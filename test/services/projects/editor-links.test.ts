import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EditorLinks } from '../../../src/services/projects/editor-links';

/** The key as the scheme defines it (docs/api.md, Editor URL), computed here without the class. */
const keyBy = (pepper: string, id: string, seed: string) =>
  createHmac('sha256', createHmac('sha256', pepper).update('photobook editor link keys').digest())
    .update(`${id}\u0000${seed}`)
    .digest('base64url')
    .slice(0, 32);

describe('editor links', () => {
  it('print FRONTEND_URL with the query in place of its own, its path and fragment kept, as new URL would', () => {
    for (const frontend of [
      'http://127.0.0.1:4000/editor',
      'https://shop.example/a/b?x=1#top',
      'https://ü.example/päth',
    ]) {
      const links = new EditorLinks(frontend, 'pepper');
      const expected = new URL(frontend);
      expected.search = new URLSearchParams({ id: 'p-abc', editorKey: keyBy('pepper', 'p-abc', 'seed') }).toString();
      expect(links.link({ id: 'p-abc', editorKeySeed: 'seed' })).toBe(expected.toString());
    }
  });

  it('a kept key is the key of the current seed: a new seed gives a new key and the old one no longer opens', () => {
    const links = new EditorLinks('http://127.0.0.1:4000/editor', 'pepper');
    const before = { id: 'p-abc', editorKeySeed: 'seed-1' };
    const after = { id: 'p-abc', editorKeySeed: 'seed-2' };
    const oldKey = links.keyOf(before);
    expect(links.keyOf(before)).toBe(oldKey);
    expect(links.keyOf(after)).toBe(keyBy('pepper', 'p-abc', 'seed-2'));
    expect(links.opens(after, oldKey)).toBe(false);
    expect(links.opens(after, links.keyOf(after))).toBe(true);
  });

  it('keep at most 20,000 keys, the oldest dropped first, and still answer every project', () => {
    const links = new EditorLinks('http://127.0.0.1:4000/editor', 'pepper');
    for (let n = 0; n < 20_100; n++) links.keyOf({ id: `p-${n}`, editorKeySeed: 's' });
    expect((links as unknown as { keys: Map<string, string> }).keys.size).toBe(20_000);
    expect(links.keyOf({ id: 'p-0', editorKeySeed: 's' })).toBe(keyBy('pepper', 'p-0', 's'));
  });
});
