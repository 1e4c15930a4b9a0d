import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_CODE } from '../../src/domain/database-unavailable';
import { ERROR_EXPLANATIONS } from '../../src/domain/error-explanations';
import { problemTypeOf } from '../../src/http/problem';
import { errorCodesInSource } from '../support/error-codes-in-source';
import { startTestService, type TestService } from '../support/harness';
import { request } from '../support/http';

/** Codes problem.ts passes through from the HTTP framework rather than from our vocabulary. */
const FRAMEWORK_CODES = ['BAD_REQUEST', 'FST_ERR_BAD_URL', 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'];

/** Every problem `type` the service answers with resolves to the code's explanation. */
describe('GET /problems/<code>', () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api?.stop());

  it('explains every code the service can answer with, as HTML and as JSON', async () => {
    const explained = new Set(ERROR_EXPLANATIONS.flatMap((explanation) => explanation.codes));
    const emitted = new Set([...(await errorCodesInSource()), DATABASE_UNAVAILABLE_CODE, 'INTERNAL']);
    expect(emitted.size).toBeGreaterThan(60); // the scan still finds the service's errors
    expect(
      [...emitted].filter((code) => !explained.has(code) && !FRAMEWORK_CODES.includes(code)),
      'codes thrown in src/ without an explanation',
    ).toEqual([]);

    for (const code of new Set([...emitted, ...explained, ...FRAMEWORK_CODES])) {
      const statuses = ERROR_EXPLANATIONS.filter((explanation) => explanation.codes.includes(code)).map(
        (explanation) => explanation.status,
      );
      const page = await fetch(`${api.url}${problemTypeOf(code)}`, {
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      });
      expect(page.status, code).toBe(200);
      expect(page.headers.get('content-type'), code).toContain('text/html');
      const html = await page.text();
      expect(html, code).toContain(`<h1><code>${code}</code></h1>`);
      for (const status of statuses) expect(html, code).toContain(`<h2>HTTP ${status} `);

      const json = await request(api.url, 'GET', problemTypeOf(code), { headers: { accept: 'application/json' } });
      expect(json.status, code).toBe(200);
      expect(json.body.code, code).toBe(code);
      expect(json.body.type, code).toBe(problemTypeOf(code));
      if (statuses.length)
        expect(
          json.body.answers.map((answer: { status: number }) => answer.status),
          code,
        ).toEqual(statuses);
      else expect(json.body.answers.length, code).toBeGreaterThan(0);
    }
  });

  it("renders an explanation's Markdown as HTML: code spans kept, links as their text, nothing unescaped", async () => {
    const html = await (await fetch(`${api.url}/problems/action-not-available`)).text();
    expect(html).toContain('<h2>HTTP 409 Conflict</h2>');
    expect(html).toContain('an order action the order-status table');
    expect(html).not.toContain('](#');
    const postcodes = await (await fetch(`${api.url}/problems/invalid-postcode`)).text();
    expect(postcodes).toContain('<code>user.address.postcode</code>');
  });

  it("resolves the type of a real error answer: follow a 401's `type`", async () => {
    const refused = await request(api.url, 'GET', '/v2/project/list?user=someone');
    expect(refused.status).toBe(401);
    expect(refused.body.type).toBe('/problems/unauthenticated');
    const explained = await request(api.url, 'GET', refused.body.type, { headers: { accept: 'application/json' } });
    expect(explained.body.answers).toEqual([expect.objectContaining({ status: 401, title: 'Unauthorized' })]);
  });

  it('answers an unknown code with a 404 problem naming it', async () => {
    const unknown = await request(api.url, 'GET', '/problems/no-such-thing', {
      headers: { accept: 'application/json' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(unknown.body).toMatchObject({
      code: 'NOT_FOUND',
      type: '/problems/not-found',
      errors: [{ path: 'code', message: 'problem type "no-such-thing" was not found' }],
    });
  });
});
