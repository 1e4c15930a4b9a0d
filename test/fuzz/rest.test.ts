import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { request, serviceHeader } from '../support/http';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { post } from '../support/http';
import { printBody } from '../support/print-fixtures';
import {
  FUZZ_RUNS,
  FUZZ_SEED,
  hostileString,
  leakIn,
  mutationsOf,
  nearSchema,
  stateOf,
  type GoodValues,
  type JsonSchema,
} from './fuzz-support';

/** JSON a header can carry: every character outside printable ASCII written as a \u escape. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

interface Operation {
  method: string;
  path: string;
  body?: JsonSchema;
  query: { name: string; schema: JsonSchema }[];
}

/** Every operation of the OpenAPI document the service publishes. */
async function operationsOf(api: TestService): Promise<Operation[]> {
  const { body: document } = await request(api.url, 'GET', '/openapi.json');
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        body: operation.requestBody?.content?.['application/json']?.schema,
        query: (operation.parameters ?? [])
          .filter((p: any) => p.in === 'query')
          .map((p: any) => ({ name: p.name, schema: p.schema })),
      });
    }
  }
  return operations;
}

describe('REST fuzzing: generated bodies, headers and query strings on every endpoint', () => {
  let api: TestService;
  let shop: IssuedClient;
  let operations: Operation[];
  let good: GoodValues;
  /** A valid request per operation (body or query), for the fuzzer to change in a few places. */
  let examples: Record<string, { body?: unknown; query?: Record<string, unknown> }>;

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Fuzzed shop');
    operations = await operationsOf(api);
    const made = await post(
      api.url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'fuzz-user' },
      serviceHeader(shop.credentials.dev),
    );
    const projectId = new URL(made.body.url).searchParams.get('id')!;
    good = {
      sku: ['PB-HC-15-S', 'PB-HC-A4-L', 103],
      psp: ['local'],
      marketId: [0, 'eu', 1],
      userId: ['fuzz-user', 'other-user'],
      user: ['fuzz-user', 'ada@example.com'],
      targetUser: ['other-user', 'bob@example.com'],
      email: ['ada@example.com'],
      language: ['en', 'de-DE'],
      id: [projectId],
      ids: [[projectId]],
      type: ['sync', 'async'],
      os: ['web'],
      env: ['dev'],
      key: [shop.credentials.dev.apiKey],
      quantity: [1],
      layoutType: ['fastbook'],
      url: ['http://127.0.0.1:1/photo.jpg'],
      photos: [[], ['http://127.0.0.1:1/a.jpg'], [{ id: 'p1', url: 'http://127.0.0.1:1/b.jpg' }]],
      callback: ['http://127.0.0.1:1/callback'],
      metadata: [{}, { note: 'fuzz' }],
      custom: [{ title: 'Fuzz book' }, [{ id: 'title', value: 'Fuzz' }]],
      csvUrl: ['http://127.0.0.1:1/rows.csv'],
    };
    const ecommerce = { env: 'dev', key: shop.credentials.dev.apiKey };
    examples = {
      'POST /v2/generate': {
        body: {
          userId: 'fuzz-user',
          language: 'de-DE',
          sku: 'PB-HC-15-S',
          psp: 'local',
          marketId: 0,
          photos: [{ id: 'p1', url: 'http://127.0.0.1:1/a.jpg' }],
          metadata: { note: 'fuzz', nested: { list: [1, 'two'] } },
          layoutType: 'fastbook',
          eCommercePlugin: true,
          callback: 'http://127.0.0.1:1/callback',
          custom: { title: 'Fuzz book' },
        },
      },
      // One orderId: print is idempotent on it, so at most one order is rendered however often this passes.
      'POST /v2/print': {
        body: {
          ...printBody('fuzz-order', projectId),
          user: { ...printBody('fuzz-order', projectId).user, email: 'ada@example.com' },
        },
      },
      'POST /v2/quote': {
        body: {
          marketId: 0,
          countryIso2: 'DE',
          shippingLevel: 'express',
          coupon: { value: 2 },
          lines: [
            { projectId, quantity: 1 },
            { sku: 'PB-HC-15-S', pageCount: 30, quantity: 2 },
          ],
        },
      },
      'POST /v2/project/delete': { body: { user: 'other-user', type: 'sync', ids: [projectId] } },
      'POST /v2/project/duplicate': { body: { id: projectId, callback: 'http://127.0.0.1:1/callback' } },
      'POST /v2/project/transfer': { body: { id: projectId, targetUser: 'fuzz-user' } },
      'POST /v2/campaign/auto-generate': { body: { csvUrl: 'http://127.0.0.1:1/rows.csv' } },
      'GET /v2/project/list': { query: { user: 'fuzz-user' } },
      'GET /v2/project/status': { query: { id: projectId } },
      'POST /api/v2/product/list-product.php': {
        body: { ...ecommerce, language: 'de', os: 'web', v: 2, schema: 1, marketId: 0, printType: 'photobook' },
      },
      'POST /api/v2/misc/get-market.php': { body: { ...ecommerce, language: 'en', latitude: 52.5, longitude: 13.4 } },
      'POST /api/v2/user/get-order-history.php': { body: { ...ecommerce, email: 'ada@example.com', language: 'en' } },
    };
  });
  afterAll(() => api?.stop());

  interface Case {
    operation: Operation;
    query: Record<string, unknown>;
    body: unknown;
    credentials: Record<string, string>;
    extraHeaders: Record<string, string>;
    raw: boolean;
  }

  /** One request, and what every answer must be: under 500, no internals, no state change when refused. */
  async function check({ operation, query, body, credentials, extraHeaders, raw }: Case): Promise<void> {
    const path = operation.path.replace(/\{(\w+)\}/g, (_all, name) => encodeURIComponent(String(query[name] ?? 'x')));
    const search = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const before = await stateOf(api);
    const headers = { ...credentials, ...extraHeaders };
    const hasBody = operation.method !== 'GET' && body !== undefined;
    const response = await request(api.url, operation.method, `${path}${search ? `?${search}` : ''}`, {
      headers,
      ...(hasBody ? (raw && typeof body === 'string' ? { rawBody: body } : { body }) : {}),
    });
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    const label = `${operation.method} ${path}?${search} ${JSON.stringify(body)?.slice(0, 300)} -> ${response.status} ${text.slice(0, 300)}`;
    if (process.env.FUZZ_TRACE)
      console.log(`${response.status} ${operation.method} ${operation.path} ${text.slice(0, 160)}`);
    expect(response.status, label).toBeLessThan(500);
    expect(leakIn(text), label).toBeUndefined();
    if (response.status >= 400)
      expect(await stateOf(api), `state changed by a rejected request: ${label}`).toBe(before);
  }

  it('finds the endpoints in the published OpenAPI document', () => {
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(['POST /v2/generate', 'GET /v2/project/list', 'POST /api/v2/misc/get-market.php']),
    );
  });

  it('never answers 5xx, never leaks internals, never changes state on a rejected request', async () => {
    const credentials = fc.oneof(
      { weight: 5, arbitrary: fc.constant(serviceHeader(shop.credentials.dev)) },
      { weight: 1, arbitrary: fc.constant(serviceHeader(shop.credentials.prod)) },
      {
        weight: 1,
        arbitrary: fc
          .record({ accessKey: hostileString, accessSecret: hostileString })
          .map((value) => ({ 'x-service': asciiJson(value) })),
      },
      { weight: 1, arbitrary: hostileString.map((value) => ({ 'x-service': value.replace(/[^\x20-\x7e]/g, '') })) },
      { weight: 1, arbitrary: fc.constant({}) },
    );
    const extraHeaders = fc.record(
      {
        'idempotency-key': fc.oneof(
          fc.uuid(),
          hostileString.map((value) => value.replace(/[^\x20-\x7e]/g, '').slice(0, 300)),
        ),
        'content-type': fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json',
          'text/plain',
        ),
        accept: fc.constantFrom('*/*', 'application/json', 'text/html'),
      },
      { requiredKeys: [] },
    );
    const caseOf = fc.integer({ min: 0, max: operations.length - 1 }).chain((index) => {
      const operation = operations[index];
      const example = examples[`${operation.method} ${operation.path}`] ?? {};
      const generatedQuery = fc.record(
        Object.fromEntries(operation.query.map((q) => [q.name, nearSchema(q.schema, good, q.name)])),
        { requiredKeys: [] },
      );
      const query = (example.query ? fc.oneof(mutationsOf(example.query), generatedQuery) : generatedQuery).map(
        (value) =>
          Object.fromEntries(
            Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [
              k,
              typeof v === 'string' ? v : JSON.stringify(v),
            ]),
          ),
      );
      // eCommerce routes authenticate by env + key in the body: a real key most of the time.
      const generatedBody = operation.body
        ? nearSchema(operation.body, good).chain((value) =>
            fc
              .boolean()
              .map((withKey) =>
                withKey &&
                value &&
                typeof value === 'object' &&
                !Array.isArray(value) &&
                'key' in (operation.body?.properties ?? {})
                  ? { ...value, env: 'dev', key: shop.credentials.dev.apiKey }
                  : value,
              ),
          )
        : fc.constant(undefined);
      const body = example.body
        ? fc.oneof({ weight: 3, arbitrary: mutationsOf(example.body) }, { weight: 2, arbitrary: generatedBody })
        : generatedBody;
      return fc.record({
        operation: fc.constant(operation),
        query,
        body,
        credentials,
        extraHeaders,
        raw: fc.boolean(),
      });
    });

    await fc.assert(fc.asyncProperty(caseOf, check), { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true });
  }, 600_000);

  /** Requests that were answered with a 500 before (issue 9, and review), kept as fixed examples. */
  const REGRESSIONS: [
    string,
    (auth: Record<string, string>) => Omit<Case, 'credentials'> & { credentials?: Record<string, string> },
  ][] = [
    [
      'a NUL inside metadata of generate',
      () => ({
        operation: operationNamed('POST /v2/generate'),
        query: {},
        body: { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, metadata: { a: '\u0000' } },
        extraHeaders: {},
        raw: false,
      }),
    ],
    [
      'a lone surrogate inside custom of generate',
      () => ({
        operation: operationNamed('POST /v2/generate'),
        query: {},
        body: { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, custom: { title: '\ud800' } },
        extraHeaders: {},
        raw: false,
      }),
    ],
    [
      'a NUL in the X-Service accessKey',
      () => ({
        operation: operationNamed('GET /v2/project/list'),
        query: { user: 'a' },
        body: undefined,
        extraHeaders: {},
        raw: false,
        credentials: { 'x-service': '{"accessKey":"\\u0000","accessSecret":"x"}' },
      }),
    ],
  ];

  function operationNamed(name: string): Operation {
    return operations.find((o) => `${o.method} ${o.path}` === name)!;
  }

  it.each(REGRESSIONS)('holds for a former 500: %s', async (_name, make) => {
    const made = make(serviceHeader(shop.credentials.dev));
    await check({ ...made, credentials: made.credentials ?? serviceHeader(shop.credentials.dev) });
  });
});
