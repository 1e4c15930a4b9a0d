import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import type { IssuedClient } from '../../src/services/clients/client-admin';

/**
 * `__proto__`, `constructor` and `prototype` as keys of a free-form object (metadata, custom):
 * refused alike by REST and GraphQL, over HTTP and graphql-ws, as variables and as literals, with
 * 400 INVALID_TEXT and nothing stored (issue 39: GraphQL stored `__proto__` keys REST refused).
 */
describe('prototype keys in free-form objects', () => {
  let api: TestService;
  let shop: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Prototype shop');
    auth = serviceHeader(shop.credentials.dev);
  });
  afterAll(() => api?.stop());

  const product = '"sku": "PB-HC-15-S", "psp": "local", "marketId": 0, "userId": "proto"';
  const projectCount = async () =>
    Number((await (await api.orm()).em.getConnection().execute('SELECT count(*) AS n FROM projects'))[0].n);
  const generateMutation = 'mutation G($input: GenerateProjectInput!) { generateProject(input: $input) { url } }';

  it.each([
    ['__proto__', '{"__proto__": {"isAdmin": true}}', 'metadata.__proto__'],
    ['constructor.prototype', '{"constructor": {"prototype": {"isAdmin": true}}}', 'metadata.constructor'],
    ['constructor', '{"constructor": "x"}', 'metadata.constructor'],
    ['prototype, nested', '{"a": [{"prototype": 1}]}', 'metadata.a[0].prototype'],
  ])('REST answers 400 INVALID_TEXT to a %s key in metadata and stores nothing', async (_key, metadata, path) => {
    const before = await projectCount();
    const response = await request(api.url, 'POST', '/v2/generate', {
      rawBody: `{${product}, "metadata": ${metadata}}`,
      headers: auth,
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_TEXT');
    expect(response.body.errors[0].path).toBe(path);
    expect(await projectCount()).toBe(before);
  });

  it.each([
    ['__proto__', '{__proto__: {isAdmin: true}}', 'input.metadata.__proto__'],
    ['constructor', '{constructor: "x"}', 'input.metadata.constructor'],
    ['prototype, nested', '{a: {prototype: 1}}', 'input.metadata.a.prototype'],
  ])('GraphQL refuses a %s key in an object literal before running the mutation', async (_key, metadata, path) => {
    const before = await projectCount();
    const response = await post(
      api.url,
      '/graphql',
      {
        query: `mutation { generateProject(input: {sku: "PB-HC-15-S", psp: "local", marketId: "0", userId: "proto", metadata: ${metadata}}) { url } }`,
      },
      auth,
    );
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toBe(`${path}: must not be named __proto__, constructor or prototype`);
    // Apollo reports every validation rule's complaint as GRAPHQL_VALIDATION_FAILED (as for a NUL in a literal).
    expect(response.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await projectCount()).toBe(before);
  });

  it('GraphQL refuses them in variables, over HTTP and graphql-ws', async () => {
    const before = await projectCount();
    const overHttp = await request(api.url, 'POST', '/graphql', {
      rawBody: JSON.stringify({
        query: generateMutation,
        variables: {
          input: { sku: 'PB-HC-15-S', psp: 'local', marketId: '0', userId: 'proto', metadata: { constructor: 'x' } },
        },
      }),
      headers: auth,
    });
    expect(overHttp.body.errors[0].extensions.code).toBe('INVALID_TEXT');
    expect(overHttp.body.errors[0].message).toContain('variables.input.metadata.constructor');

    const { accessKey, accessSecret } = shop.credentials.dev;
    const socket = createClient({
      url: `${api.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { accessKey, accessSecret },
      retryAttempts: 0,
    });
    try {
      // JSON.parse (graphql-ws reads messages with it) keeps `__proto__` as an own key.
      const variables = JSON.parse(
        '{"input": {"sku": "PB-HC-15-S", "psp": "local", "marketId": "0", "userId": "proto", "metadata": {"__proto__": {"isAdmin": true}}}}',
      );
      const outcome = await new Promise<string>((resolve) => {
        socket.subscribe(
          { query: generateMutation, variables },
          {
            next: (result) => resolve(JSON.stringify(result)),
            error: (error) => resolve(JSON.stringify(error)),
            complete: () => undefined,
          },
        );
      });
      expect(outcome).toContain('INVALID_TEXT');
      expect(outcome).toContain('variables.input.metadata.__proto__');
    } finally {
      await socket.dispose();
    }
    expect(await projectCount()).toBe(before);
  });
});
