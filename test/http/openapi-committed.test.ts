import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';

const COMMITTED = new URL('../../schema/openapi.json', import.meta.url);
/** The deployment's own address in the document (`servers`, `contact`), the same in every copy. */
const CANONICAL_PUBLIC_URL = 'http://localhost:4000';

/**
 * The OpenAPI document the running service serves, as committed in schema/openapi.json: an API
 * change shows in review, and the typed client (clients/typescript) is generated from this file.
 * `npm run openapi:emit` runs this file with OPENAPI_EMIT=write, writing the served document.
 */
describe('schema/openapi.json', () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api?.stop());

  it('is the document the running service serves at /openapi.json', async () => {
    const response = await fetch(`${api.url}/openapi.json`);
    expect(response.status).toBe(200);
    const served = canonical(await response.text(), api.config.publicUrl);
    if (process.env.OPENAPI_EMIT === 'write') await writeFile(COMMITTED, served);
    const committed = await readFile(COMMITTED, 'utf8').catch(() => '(missing)');
    expect(
      committed,
      'schema/openapi.json is stale: run `npm run openapi:emit` (then `npm run codegen`) and commit both',
    ).toBe(served);
  });
});

/** Two-space JSON with a final newline, this deployment's address replaced by the default one. */
function canonical(json: string, publicUrl: string): string {
  const text = `${JSON.stringify(JSON.parse(json), null, 2)}\n`;
  return text.replaceAll(publicUrl, CANONICAL_PUBLIC_URL);
}
