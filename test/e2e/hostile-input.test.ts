import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { MAX_FREEFORM_BYTES, MAX_FREEFORM_DEPTH } from '../../src/domain/limits';
import type { IssuedClient } from '../../src/services/clients/client-admin';

/** Text PostgreSQL refuses in JSON (`\u0000`, an unpaired `\ud800`) and in text columns (NUL). */
const NUL = 'a\u0000b';
const LONE_HIGH = 'x\ud800y';
const LONE_LOW = '\udc00';

describe('hostile input: unsafe text, free-form limits, strict body types', () => {
  let api: TestService;
  let shop: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Hostile input shop');
    auth = serviceHeader(shop.credentials.dev);
  });
  afterAll(() => api?.stop());

  const product = { sku: 'PB-HC-15-S', psp: 'local', marketId: 0 };
  const generate = (body: Record<string, unknown>) => post(api.url, '/v2/generate', { ...product, ...body }, auth);
  const projectCount = async () =>
    Number((await (await api.orm()).em.getConnection().execute('SELECT count(*) AS n FROM projects'))[0].n);
  const graphql = (query: string, variables?: Record<string, unknown>) =>
    post(api.url, '/graphql', { query, variables }, auth);

  it.each([
    ['metadata', { metadata: { note: NUL } }, 'metadata.note'],
    ['metadata, nested', { metadata: { a: [{ b: LONE_HIGH }] } }, 'metadata.a[0].b'],
    ['custom as an object', { custom: { title: LONE_LOW } }, 'custom.title'],
    ['custom as a list', { custom: [{ id: 'title', value: NUL }] }, 'custom[0].value'],
    ['a plain string field', { userId: NUL }, 'userId'],
  ])(
    'answers 400 naming the field for a NUL or lone surrogate in %s, and stores nothing',
    async (_what, body, path) => {
      const before = await projectCount();
      const response = await generate(body);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body.errors).toContainEqual({ path, message: expect.stringContaining('NUL') });
      expect(await projectCount()).toBe(before);
    },
  );

  it('refuses a NUL in an object key, naming the object', async () => {
    const response = await generate({ metadata: { [`k${NUL}`]: 1 } });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('metadata');
  });

  it('refuses unsafe text in a querystring and in the X-Service credentials without a 500', async () => {
    const list = await request(api.url, 'GET', `/v2/project/list?user=${encodeURIComponent(NUL)}`, { headers: auth });
    expect(list.status).toBe(400);
    expect(list.body.errors[0].path).toBe('user');
    const header = { 'x-service': JSON.stringify({ accessKey: NUL, accessSecret: 'x' }) };
    const unauthenticated = await request(api.url, 'GET', '/v2/project/list?user=a', { headers: header });
    expect(unauthenticated.status).toBe(401);
  });

  it('keeps pairs of surrogates (emoji) and other text intact', async () => {
    const response = await generate({
      userId: 'emoji-user',
      metadata: { note: 'Grüße 📷 ok' },
      custom: { title: 'Été 🌞' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });

  it(`refuses free-form objects deeper than ${MAX_FREEFORM_DEPTH} levels or larger than ${MAX_FREEFORM_BYTES} bytes, naming the field`, async () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 1; i < MAX_FREEFORM_DEPTH; i++) deep = { deeper: deep };
    expect((await generate({ userId: 'depth-ok', metadata: deep })).status).toBe(200);
    const tooDeep = await generate({ metadata: { deeper: deep } });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.errors).toEqual([
      { path: 'metadata', message: expect.stringContaining(`${MAX_FREEFORM_DEPTH} levels`) },
    ]);
    const tooLarge = await generate({ metadata: { blob: 'x'.repeat(MAX_FREEFORM_BYTES) } });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors).toEqual([
      { path: 'metadata', message: expect.stringContaining(`${MAX_FREEFORM_BYTES} bytes`) },
    ]);
  });

  it.each([
    ['userId', { userId: 42 }],
    ['language', { language: 42 }],
    ['psp', { psp: true }],
    ['eCommercePlugin', { eCommercePlugin: 'true' }],
  ])('does not coerce a JSON body of the wrong type: %s is a 400 naming it', async (field, body) => {
    const response = await generate(body);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it('still reads numbers from a querystring', async () => {
    // eCommerce bodies are strict too: marketId "0" is a string where the spec says integer.
    const strict = await post(api.url, '/api/v2/product/list-product.php', {
      env: 'dev',
      key: shop.credentials.dev.apiKey,
      os: 'web',
      marketId: '0',
    });
    expect(strict.status).toBe(400);
    expect(strict.body.errors[0].path).toBe('marketId');
    const list = await request(api.url, 'GET', '/v2/project/list?user=12345', { headers: auth });
    expect(list.status).toBe(200);
  });

  describe('GraphQL', () => {
    const generateMutation = 'mutation G($input: GenerateProjectInput!) { generateProject(input: $input) { url } }';

    it('refuses a NUL in variables (including a JSON scalar), naming the variable path', async () => {
      const before = await projectCount();
      const response = await graphql(generateMutation, {
        input: { ...product, marketId: '0', metadata: { note: NUL } },
      });
      expect(response.body.errors[0].extensions.code).toBe('INVALID_TEXT');
      expect(response.body.errors[0].message).toContain('variables.input.metadata.note');
      expect(await projectCount()).toBe(before);
    });

    it('refuses a NUL or lone surrogate written as an escape in a string literal, naming the argument', async () => {
      const response = await graphql('{ projects(user: "a\\u0000b") { edges { node { id } } } }');
      // Apollo reports every validation rule's complaint as GRAPHQL_VALIDATION_FAILED.
      expect(response.body.errors[0].message).toMatch(/^user: must not contain a NUL/);
      const literalObject = await graphql(
        `mutation { generateProject(input: {sku: "PB-HC-15-S", psp: "local", marketId: "0", metadata: {note: "\\u0000"}}) { url } }`,
      );
      expect(literalObject.body.errors[0].message).toMatch(/^input\.metadata\.note: must not contain/);
    });

    it('applies the free-form limits to JSON scalars', async () => {
      const response = await graphql(generateMutation, {
        input: { ...product, marketId: '0', metadata: { blob: 'x'.repeat(MAX_FREEFORM_BYTES) } },
      });
      expect(response.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      expect(response.body.errors[0].extensions.errors).toEqual([
        { path: 'metadata', message: expect.stringContaining('bytes') },
      ]);
    });

    it('refuses a document of 150,000 repeated fields by its cost, before running it', async () => {
      const response = await graphql(`{ markets { results { ${'id '.repeat(150_000)}} } }`);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].message).toMatch(/Cost limit of \d+ exceeded/);
      // Without credentials the same document is never read as JSON, let alone parsed as GraphQL.
      const anonymous = await post(api.url, '/graphql', {
        query: `{ markets { results { ${'id '.repeat(150_000)}} } }`,
      });
      expect(anonymous.status).toBe(401);
    });

    it('refuses a NUL in the variables of a graphql-ws operation', async () => {
      const credentials = shop.credentials.dev;
      const client: Client = createClient({
        url: `${api.url.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { accessKey: credentials.accessKey, accessSecret: credentials.accessSecret },
        retryAttempts: 0,
      });
      try {
        const errors = await new Promise<unknown[]>((resolve) => {
          client.subscribe(
            {
              query: 'subscription S($id: String!) { projectStatusChanged(projectId: $id) { status { project } } }',
              variables: { id: NUL },
            },
            { next: () => undefined, error: (error) => resolve(error as unknown[]), complete: () => resolve([]) },
          );
        });
        expect(JSON.stringify(errors)).toContain('INVALID_TEXT');
      } finally {
        await client.dispose();
      }
    });
  });
});
