import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { editorConnectionParams, editorCredentialsOf, editorHeaders } from '../support/editor-link';
import type { IssuedClient } from '../../src/services/clients/client-admin';

/** The published limits (docs/operations.md, Limits), each set low for this service only. */
const LOW_LIMITS = {
  RATE_LIMIT_MAX: '3',
  RATE_LIMIT_WINDOW: '1m',
  BODY_LIMIT: '2048',
  GRAPHQL_MAX_DEPTH: '4',
  GRAPHQL_MAX_ALIASES: '2',
  WS_MAX_CONNECTIONS_PER_CLIENT: '1',
  WS_MAX_SUBSCRIPTIONS_PER_CLIENT: '1',
};

describe('published limits', () => {
  let api: TestService;
  const sockets: Client[] = [];

  beforeAll(async () => {
    api = await startTestService(LOW_LIMITS);
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
  });
  afterAll(() => api?.stop());

  /** Every test spends its own client's budget. */
  const freshShop = (): Promise<IssuedClient> => api.createClient(`Limited shop ${crypto.randomUUID()}`);
  const list = (auth: Record<string, string>) =>
    request(api.url, 'GET', '/v2/project/list?user=someone', { headers: auth });

  it('rate-limits each credential on its own, announcing the budget, then answering a 429 problem with Retry-After', async () => {
    const shop = await freshShop();
    const auth = serviceHeader(shop.credentials.dev);
    const answers = [await list(auth), await list(auth), await list(auth)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0']);
    expect(answers[0].headers.get('ratelimit-limit')).toBe('3');
    expect(answers[0].headers.get('ratelimit-policy')).toBe('3;w=60');

    const limited = await list(auth);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', title: 'Too Many Requests' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // GraphQL spends the same credential's budget.
    const graphql = await post(api.url, '/graphql', { query: '{ markets { results { marketId } } }' }, auth);
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');

    // Another environment of the same client, another client: budgets of their own.
    expect((await list(serviceHeader(shop.credentials.prod))).status).toBe(200);
    expect((await list(serviceHeader((await freshShop()).credentials.dev))).status).toBe(200);
  });

  it('rate-limits eCommerce calls by their API key and requests without credentials by address; never the health probes', async () => {
    const shop = await freshShop();
    const body = { env: 'dev', key: shop.credentials.dev.apiKey };
    const markets = () => post(api.url, '/api/v2/misc/get-market.php', body);
    expect([
      (await markets()).status,
      (await markets()).status,
      (await markets()).status,
      (await markets()).status,
    ]).toEqual([200, 200, 200, 429]);

    const anonymous = [];
    for (let i = 0; i < 4; i++) anonymous.push((await request(api.url, 'GET', '/openapi.json')).status);
    expect(anonymous).toEqual([200, 200, 200, 429]);
    for (let i = 0; i < 5; i++) expect((await request(api.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('answers 413 to a body over BODY_LIMIT', async () => {
    const auth = serviceHeader((await freshShop()).credentials.dev);
    const response = await post(
      api.url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, metadata: { note: 'x'.repeat(3000) } },
      auth,
    );
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses GraphQL operations over the depth and alias limits before running them', async () => {
    const auth = serviceHeader((await freshShop()).credentials.dev);
    const deep = await post(
      api.url,
      '/graphql',
      { query: '{ projects(user: "u") { edges { node { product { sku } } } } }' },
      auth,
    );
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].message).toMatch(/depth limit of 4/);
    const aliased = await post(
      api.url,
      '/graphql',
      { query: '{ a: markets { results { id } } b: markets { results { id } } c: markets { results { id } } }' },
      auth,
    );
    expect(aliased.status).toBe(400);
    expect(aliased.body.errors[0].message).toMatch(/Aliases limit of 2/i);
  });

  it('caps first on every top-level connection, naming first', async () => {
    const auth = serviceHeader((await freshShop()).credentials.dev);
    for (const query of [
      '{ projects(user: "u", first: 101) { edges { cursor } } }',
      '{ orders(first: 101) { edges { cursor } } }',
      '{ campaigns(first: 101) { edges { cursor } } }',
    ]) {
      const { body } = await post(api.url, '/graphql', { query }, auth);
      expect(body.errors?.[0]?.message, query).toMatch(/^first: must be from 1 to 100/);
    }
  });

  it('spends the same budget on graphql-ws operations as on REST and GraphQL over HTTP', async () => {
    const shop = await freshShop();
    const { accessKey, accessSecret } = shop.credentials.dev;
    expect((await list(serviceHeader(shop.credentials.dev))).status).toBe(200);
    const socket = createClient({
      url: `${api.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { accessKey, accessSecret },
      retryAttempts: 0,
    });
    sockets.push(socket);
    const run = () =>
      new Promise<string>((resolve) => {
        socket.subscribe(
          { query: '{ markets { results { marketId } } }' },
          {
            next: () => resolve('answered'),
            error: (error) => resolve(JSON.stringify(error)),
            complete: () => undefined,
          },
        );
      });
    expect(await run()).toBe('answered');
    expect(await run()).toBe('answered');
    // The fourth of RATE_LIMIT_MAX=3, over the socket: refused as the operation's error.
    expect(await run()).toContain('RATE_LIMITED');
    // And the socket's operations spent the client's budget for HTTP too.
    expect((await list(serviceHeader(shop.credentials.dev))).status).toBe(429);
  });

  it("gives an editor link a budget and socket caps of its own: an end user cannot use up the shop's", async () => {
    const shop = await freshShop();
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId: 'end-user', sku: 'PB-HC-15-S', psp: 'local', marketId: 0 },
      serviceHeader(shop.credentials.dev),
    );
    expect(generated.status).toBe(200);
    const link = editorCredentialsOf(generated.body.url);
    const { projectId } = link;
    const asEditor = () =>
      post(
        api.url,
        '/graphql',
        { query: 'query ($id: String!) { project(id: $id) { id } }', variables: { id: projectId } },
        editorHeaders(link),
      );
    expect([
      (await asEditor()).status,
      (await asEditor()).status,
      (await asEditor()).status,
      (await asEditor()).status,
    ]).toEqual([200, 200, 200, 429]);
    // The shop spent one request (generate) of its 3.
    expect((await list(serviceHeader(shop.credentials.dev))).headers.get('ratelimit-remaining')).toBe('1');

    // WS_MAX_CONNECTIONS_PER_CLIENT=1: the editor's socket does not take the shop's one.
    const opened = (connectionParams: Record<string, unknown>) =>
      new Promise<string>((resolve) => {
        const socket = createClient({
          url: `${api.url.replace(/^http/, 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          connectionParams,
          retryAttempts: 0,
          lazy: false,
          on: {
            connected: () => resolve('connected'),
            closed: (event) => resolve(`closed ${(event as { code: number }).code}`),
          },
        });
        sockets.push(socket);
      });
    expect(await opened(editorConnectionParams(link))).toBe('connected');
    const { accessKey, accessSecret } = shop.credentials.dev;
    expect(await opened({ accessKey, accessSecret })).toBe('connected');
  });

  it('caps graphql-ws connections and subscriptions per client', async () => {
    const { accessKey, accessSecret } = (await freshShop()).credentials.dev;
    const connect = (onClosed?: (code: number) => void) => {
      const socket = createClient({
        url: `${api.url.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { accessKey, accessSecret },
        retryAttempts: 0,
        on: { closed: (event) => onClosed?.((event as { code: number }).code) },
      });
      sockets.push(socket);
      return socket;
    };
    const subscribe = (socket: Client) =>
      new Promise<string>((resolve) => {
        socket.subscribe(
          { query: 'subscription { projectStatusChanged(user: "someone") { status { project } } }' },
          {
            next: () => undefined,
            error: (error) => resolve(JSON.stringify(error)),
            complete: () => resolve('complete'),
          },
        );
        setTimeout(() => resolve('running'), 1000);
      });

    const first = connect();
    expect(await subscribe(first)).toBe('running');
    expect(await subscribe(first)).toContain('RATE_LIMITED');

    const closedWith = new Promise<number>((resolve) => {
      void subscribe(connect(resolve));
    });
    expect(await closedWith).toBe(4429);

    // Once the first connection is gone, the client may connect again.
    await first.dispose();
    sockets.splice(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await subscribe(connect())).toBe('running');
  });
});
