import { Spectral, type ISpectralDiagnostic, type RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';

/** Spectral's severities: 0 error, 1 warning, 2 information, 3 hint. */
const WARNING = 1;

/** `extends: spectral:oas` of a .spectral.yaml: the ruleset's recommended rules. */
function lint(document: string): Promise<ISpectralDiagnostic[]> {
  const spectral = new Spectral();
  // The package types its rulesets loosely (no `extends`); it is a complete ruleset definition.
  spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
  return spectral.run(document);
}

describe('the published OpenAPI document under Spectral', () => {
  let api: TestService;
  let document: string;

  beforeAll(async () => {
    api = await startTestService();
    const response = await fetch(`${api.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = await response.text();
  });
  afterAll(() => api?.stop());

  it('lints clean with the spectral:oas ruleset: no error, no warning', async () => {
    const results = await lint(document);
    const format = (r: ISpectralDiagnostic) => `${r.code} at ${r.path.join('.')}: ${r.message}`;
    expect(results.filter((r) => r.severity <= WARNING).map(format)).toEqual([]);
  });

  it('catches what it should: an operation without operationId is a warning', async () => {
    // Guards the test above against a ruleset that silently checks nothing.
    const broken = JSON.parse(document);
    delete broken.paths['/healthz'].get.operationId;
    const results = await lint(JSON.stringify(broken));
    expect(results.map((r) => [r.code, r.severity, r.path.join('.')])).toEqual([
      ['operation-operationId', WARNING, 'paths./healthz.get'],
    ]);
  });

  it('gives every operation a unique operationId, a summary and a description', () => {
    const doc = JSON.parse(document);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, any>).map(([method, operation]) => ({
        at: `${method.toUpperCase()} ${path}`,
        ...operation,
      })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(13);
    for (const operation of operations) {
      expect(operation.operationId, operation.at).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary, operation.at).toBeTruthy();
      expect(operation.description, operation.at).toBeTruthy();
    }
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
  });
});
