import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import type { IssuedClient } from '../../src/services/clients/client-admin';

/** Request bodies with every documented field (docs/api.md, Product list and Markets). */
const SPEC_EXAMPLES = {
  '/api/v2/product/list-product.php': {
    env: 'dev',
    key: '<API_KEY>',
    language: 'en',
    os: 'web',
    v: 1,
    schema: 1,
    marketId: 0,
    printType: 'photobook',
  },
  '/api/v2/misc/get-market.php': { env: 'prod', key: '<API_KEY>', language: 'de', latitude: 52.52, longitude: 13.405 },
};

describe('OpenAPI document and docs page', () => {
  let api: TestService;
  let client: IssuedClient;
  let doc: any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  beforeAll(async () => {
    api = await startTestService();
    client = await api.createClient();
    doc = (await request(api.url, 'GET', '/openapi.json')).body;
  });
  afterAll(() => api?.stop());

  const operation = (path: string) => doc.paths[path].post;
  const bodySchema = (path: string) => operation(path).requestBody.content['application/json'].schema;
  const okSchema = (path: string) => operation(path).responses['200'].content['application/json'].schema;
  const withComponents = (schema: object) => ({ ...schema, components: doc.components });

  it('is OpenAPI 3.1 and lists every REST endpoint with request and response schemas', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const path of Object.keys(SPEC_EXAMPLES)) {
      expect(bodySchema(path).required).toEqual(expect.arrayContaining(['env', 'key']));
      expect(okSchema(path).type).toBe('object');
      expect(operation(path).responses['400'].content['application/problem+json']).toBeDefined();
    }
  });

  it('lists 429 (rate limit) and 503 (database away) on every operation, as problems', () => {
    // The probes are exempt from the rate limit and answer /readyz's 503 in their own shape.
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { responses?: Record<string, { content?: object }> }>>,
    )
      .filter(([path]) => path !== '/healthz' && path !== '/readyz')
      .flatMap(([, methods]) => Object.values(methods))
      .filter((op) => op.responses?.['200']);
    expect(operations.length).toBeGreaterThan(10);
    const documented = (op: (typeof operations)[number], status: string) => Boolean(op.responses?.[status]?.content);
    expect(operations.filter((op) => !documented(op, '429') || !documented(op, '503'))).toEqual([]);
  });

  it.each(Object.entries(SPEC_EXAMPLES))('accepts the documented example of %s', (path, example) => {
    const validate = ajv.compile(bodySchema(path));
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const { os: _os, ...withoutOs } = example as Record<string, unknown>;
    if (path.includes('list-product')) expect(validate(withoutOs)).toBe(false);
  });

  it('describes the live responses exactly: real answers validate against the published schemas', async () => {
    const auth = { env: 'dev', key: client.credentials.dev.apiKey };
    const products = await post(api.url, '/api/v2/product/list-product.php', { ...auth, os: 'web', marketId: 2 });
    const markets = await post(api.url, '/api/v2/misc/get-market.php', { ...auth, latitude: 40.71, longitude: -74.0 });
    for (const [path, response] of [
      ['/api/v2/product/list-product.php', products],
      ['/api/v2/misc/get-market.php', markets],
    ] as const) {
      const validate = ajv.compile(withComponents(okSchema(path)));
      expect(validate(response.body), JSON.stringify(validate.errors)).toBe(true);
    }
    const problem = await post(api.url, '/api/v2/product/list-product.php', { ...auth });
    const validateProblem = ajv.compile(
      withComponents(
        operation('/api/v2/product/list-product.php').responses['400'].content['application/problem+json'].schema,
      ),
    );
    expect(validateProblem(problem.body), JSON.stringify(validateProblem.errors)).toBe(true);
  });

  it('describes the PWA answers too: generate, list, status and transfer validate against their published schemas', async () => {
    const auth = serviceHeader(client.credentials.dev);
    const schemaOf = (method: 'get' | 'post', path: string) =>
      withComponents(doc.paths[path][method].responses['200'].content['application/json'].schema);
    const generated = await post(
      api.url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'described' },
      auth,
    );
    const id = new URL(generated.body.url).searchParams.get('id')!;
    const answers = [
      ['post', '/v2/generate', generated],
      ['get', '/v2/project/list', await request(api.url, 'GET', '/v2/project/list?user=described', { headers: auth })],
      ['get', '/v2/project/status', await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })],
      [
        'post',
        '/v2/project/transfer',
        await post(api.url, '/v2/project/transfer', { id, targetUser: 'described-too' }, auth),
      ],
    ] as const;
    for (const [method, path, response] of answers) {
      expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
      const validate = ajv.compile(schemaOf(method, path));
      expect(validate(response.body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('serves a docs page', async () => {
    const response = await fetch(`${api.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('swagger');
  });
});
