import { randomBytes } from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, serviceHeader } from '../support/http';
import type { IssuedClient } from '../../src/services/clients/client-admin';

/** A field one letter off a real one (`markets`): GraphQL's validation would suggest it. */
const MISSPELT = '{ marketz { results { marketId } } }';

/** The error message a socket answers to `query`. */
function overSocket(api: TestService, shop: IssuedClient, query: string): Promise<string> {
  const { accessKey, accessSecret } = shop.credentials.dev;
  const socket = createClient({
    url: `${api.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { accessKey, accessSecret },
    retryAttempts: 0,
  });
  return new Promise<string>((resolve) => {
    socket.subscribe(
      { query },
      {
        next: () => undefined,
        error: (errors) => resolve(JSON.stringify(errors)),
        complete: () => resolve('complete'),
      },
    );
  }).finally(() => socket.dispose());
}

describe.each([
  ['production', { NODE_ENV: 'production', CREDENTIAL_PEPPER: randomBytes(32).toString('base64') }, false],
  ['development', {}, true],
])('GraphQL field suggestions in %s', (_mode, env, suggests) => {
  let api: TestService;
  let shop: IssuedClient;

  beforeAll(async () => {
    api = await startTestService(env);
    shop = await api.createClient('Shop that misspells');
  });
  afterAll(() => api?.stop());

  it(`${suggests ? 'name' : 'never name'} the field the caller may have meant, over HTTP and graphql-ws, and always say what is wrong`, async () => {
    const http = await post(api.url, '/graphql', { query: MISSPELT }, serviceHeader(shop.credentials.dev));
    expect(http.status).toBe(400);
    const message: string = http.body.errors[0].message;
    expect(message).toContain('Cannot query field "marketz"');
    expect(message.includes('Did you mean')).toBe(suggests);
    expect(message.includes('"markets"')).toBe(suggests);

    const socketMessage = await overSocket(api, shop, MISSPELT);
    expect(socketMessage).toContain('Cannot query field \\"marketz\\"');
    expect(socketMessage.includes('Did you mean')).toBe(suggests);
  });
});
