import http from 'node:http';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, startTestService, type TestService } from '../support/harness';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { post, request, serviceHeader } from '../support/http';

/**
 * What an unauthenticated caller can make the service do (docs/operations.md, Limits): read no large frame or
 * body, hold no socket open for long, open sockets and guess credentials only at a published rate,
 * and spend nothing of a shop's budget with that shop's access key and a wrong secret.
 */

const wsUrl = (api: TestService) => `${api.url.replace(/^http/, 'ws')}/graphql`;

/** How a raw socket ended: its close code, or the HTTP status that refused the upgrade; `open` when it still was after `waitMs`. */
function outcomeOf(
  socket: WebSocket,
  waitMs = 5000,
): Promise<{ code?: number; status?: number; retryAfter?: string } | 'open'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), waitMs);
    socket.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code });
    });
    socket.on('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      resolve({ status: response.statusCode, retryAfter: response.headers['retry-after'] });
      response.resume();
    });
    socket.on('error', () => undefined);
  });
}

function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
}

/**
 * Sends `bytes` as the body of a POST over a fresh connection (`Connection: close`), in 64 KiB
 * writes, with its length declared or chunked; the status the service answers, or the error code
 * of a connection closed under the client's writes (EPIPE, ECONNRESET).
 */
function postLargeBody(
  baseUrl: string,
  urlPath: string,
  bytes: number,
  headers: Record<string, string> = {},
  options: { chunked?: boolean } = {},
): Promise<number | string> {
  return new Promise((resolve) => {
    const url = new URL(urlPath, baseUrl);
    const length = options.chunked ? {} : { 'content-length': String(bytes) };
    const req = http.request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...length, ...headers } },
      (response) => {
        response.resume();
        resolve(response.statusCode!);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

describe('graphql-ws before authentication', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService({ WS_CONNECTION_INIT_TIMEOUT: '300ms' });
  });
  afterAll(() => api?.stop());

  it('closes a socket whose first frame is over WS_MAX_PAYLOAD with 1009, without waiting for the frame', async () => {
    const socket = new WebSocket(wsUrl(api), 'graphql-transport-ws');
    await opened(socket);
    const ended = outcomeOf(socket);
    socket.send('x'.repeat(2 * 1024 * 1024));
    expect(await ended).toEqual({ code: 1009 });

    // A frame that announces 60 MiB and sends 4 KiB of it: closed on its length, nothing of it buffered.
    const announcing = new WebSocket(wsUrl(api), 'graphql-transport-ws');
    await opened(announcing);
    const announced = outcomeOf(announcing);
    const header = Buffer.alloc(14);
    header[0] = 0x81; // final text frame
    header[1] = 0x80 | 127; // masked, 64-bit length follows
    header.writeBigUInt64BE(BigInt(60 * 1024 * 1024), 2);
    randomBytes(4).copy(header, 10);
    const rawSocket = (announcing as unknown as { _socket: import('node:net').Socket })._socket;
    rawSocket.write(Buffer.concat([header, randomBytes(4096)]));
    expect(await announced).toEqual({ code: 1009 });
  });

  it('closes a socket that sends no connection_init within WS_CONNECTION_INIT_TIMEOUT with 4408', async () => {
    const socket = new WebSocket(wsUrl(api), 'graphql-transport-ws');
    await opened(socket);
    // Well before graphql-ws's own default of 3 s: the setting holds.
    expect(await outcomeOf(socket, 2000)).toEqual({ code: 4408 });
  });
});

describe('connection attempts and failed authentications per address', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService({
      WS_CONNECTS_PER_ADDRESS: '3',
      AUTH_FAILURES_MAX: '5',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_MAX: '3',
    });
  });
  afterAll(() => api?.stop());

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('refuses graphql-ws connection attempts past WS_CONNECTS_PER_ADDRESS with 429 and Retry-After; each forwarded address counts alone', async () => {
    const outcomes = [];
    for (let i = 0; i < 4; i++) {
      const socket = new WebSocket(wsUrl(api), 'graphql-transport-ws', { headers: from('198.51.100.20') });
      outcomes.push(await Promise.race([opened(socket).then(() => 'open'), outcomeOf(socket)]));
      socket.terminate();
    }
    expect(outcomes.slice(0, 3)).toEqual(['open', 'open', 'open']);
    expect(outcomes[3]).toMatchObject({ status: 429 });
    expect(Number((outcomes[3] as { retryAfter: string }).retryAfter)).toBeGreaterThan(0);

    const elsewhere = new WebSocket(wsUrl(api), 'graphql-transport-ws', { headers: from('198.51.100.21') });
    await opened(elsewhere);
    elsewhere.terminate();
  });

  it('answers 429 once an address spent AUTH_FAILURES_MAX failures, before any credential that needs the database, over HTTP and graphql-ws', async () => {
    const shop = await api.createClient('Shop behind the same address');
    const guesser = from('203.0.113.7');
    const wrong = {
      'x-service': JSON.stringify({ accessKey: `ak_${randomBytes(12).toString('hex')}`, accessSecret: 'guess' }),
    };
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await request(api.url, 'GET', '/v2/project/list?user=u', { headers: { ...wrong, ...guesser } })).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401]);

    const limited = await request(api.url, 'GET', '/v2/project/list?user=u', { headers: { ...wrong, ...guesser } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // A valid credential this process has not looked up yet would need the database: refused before it, like a guess.
    expect(
      (
        await request(api.url, 'GET', '/v2/project/list?user=u', {
          headers: { ...serviceHeader(shop.credentials.dev), ...guesser },
        })
      ).status,
    ).toBe(429);
    expect(
      (await post(api.url, '/api/v2/misc/get-market.php', { env: 'dev', key: 'guessed-key' }, guesser)).status,
    ).toBe(429);
    expect(
      (await post(api.url, '/graphql', { query: '{ markets { results { marketId } } }' }, { ...wrong, ...guesser }))
        .status,
    ).toBe(429);
    const socket = new WebSocket(wsUrl(api), 'graphql-transport-ws', { headers: from('203.0.113.7') });
    await opened(socket);
    const ended = outcomeOf(socket);
    socket.send(
      JSON.stringify({
        type: 'connection_init',
        payload: { accessKey: shop.credentials.prod.accessKey, accessSecret: shop.credentials.prod.accessSecret },
      }),
    );
    expect(await ended).toEqual({ code: 4429 });

    // Another address is not affected.
    expect(
      (
        await request(api.url, 'GET', '/v2/project/list?user=u', {
          headers: { ...serviceHeader(shop.credentials.dev), ...from('203.0.113.8') },
        })
      ).status,
    ).toBe(200);
  });

  it("spends nothing of a shop's budget on its access key with a wrong secret, over REST, GraphQL and graphql-ws", async () => {
    const shop = await api.createClient('Shop whose key is known');
    const stolenKey = {
      'x-service': JSON.stringify({ accessKey: shop.credentials.dev.accessKey, accessSecret: 'not-the-secret' }),
    };
    const attacker = from('203.0.113.50');
    const attempts = [];
    for (let i = 0; i < 2; i++) {
      attempts.push(
        (await request(api.url, 'GET', '/v2/project/list?user=u', { headers: { ...stolenKey, ...attacker } })).status,
      );
      attempts.push(
        (
          await post(
            api.url,
            '/graphql',
            { query: '{ markets { results { marketId } } }' },
            { ...stolenKey, ...attacker },
          )
        ).status,
      );
    }
    expect(attempts).toEqual([401, 401, 401, 401]);
    const socket = new WebSocket(wsUrl(api), 'graphql-transport-ws', { headers: from('203.0.113.50') });
    await opened(socket);
    const ended = outcomeOf(socket);
    socket.send(
      JSON.stringify({
        type: 'connection_init',
        payload: { accessKey: shop.credentials.dev.accessKey, accessSecret: 'not-the-secret' },
      }),
    );
    expect(await ended).toEqual({ code: 4403 });

    // The shop still has its whole budget of RATE_LIMIT_MAX=3.
    const own = [];
    for (let i = 0; i < 3; i++)
      own.push(
        await request(api.url, 'GET', '/v2/project/list?user=u', {
          headers: { ...serviceHeader(shop.credentials.dev), ...from('198.51.100.60') },
        }),
      );
    expect(own.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(own[0].headers.get('ratelimit-remaining')).toBe('2');
  });

  it('takes the client address from X-Forwarded-For only from a trusted proxy', async () => {
    const anonymous = async (address: string) =>
      (await request(api.url, 'GET', '/openapi.json', { headers: from(address) })).status;
    expect([
      await anonymous('192.0.2.1'),
      await anonymous('192.0.2.1'),
      await anonymous('192.0.2.1'),
      await anonymous('192.0.2.1'),
    ]).toEqual([200, 200, 200, 429]);
    // Behind the proxy, callers do not share one address.
    expect(await anonymous('192.0.2.2')).toBe(200);
  });
});

describe('without TRUST_PROXY', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService({ RATE_LIMIT_MAX: '2' });
  });
  afterAll(() => api?.stop());

  it('ignores X-Forwarded-For, so a caller cannot pick a fresh address per request', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await request(api.url, 'GET', '/openapi.json', { headers: { 'x-forwarded-for': `192.0.2.${10 + i}` } }))
          .status,
      );
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('request bodies before authentication', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService({ BODY_LIMIT: '2048', UNAUTHENTICATED_BODY_LIMIT: '1024' });
  });
  afterAll(() => api?.stop());

  it('answers malformed JSON without credentials with 401: the body is never parsed before authentication', async () => {
    const malformed = await request(api.url, 'POST', '/graphql', { rawBody: '{"query": ' });
    expect(malformed.status).toBe(401);
    expect(malformed.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('reads at most UNAUTHENTICATED_BODY_LIMIT of a body that authenticates itself (eCommerce), BODY_LIMIT once authenticated', async () => {
    const shop = await api.createClient('eCommerce shop');
    const padded = { env: 'dev', key: shop.credentials.dev.apiKey, language: 'en', padding: 'x'.repeat(1500) };
    const ecommerce = await post(api.url, '/api/v2/misc/get-market.php', padded);
    expect(ecommerce.status).toBe(413);
    expect(ecommerce.body.code).toBe('PAYLOAD_TOO_LARGE');
    // The same size, authenticated by its header first, is read (and then judged on its content).
    const pwa = await post(
      api.url,
      '/v2/project/duplicate',
      { id: 'x'.repeat(1500) },
      serviceHeader(shop.credentials.dev),
    );
    expect(pwa.status).not.toBe(413);
  });
});

/**
 * Over real HTTP to the service in its own process (as a client meets it: in one process with the
 * client, the race below never shows), each on a fresh connection that asks to be closed.
 */
describe('answers that come before the body is read', () => {
  let service: ServiceProcess;
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-bodies-'));
    service = await startServiceProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: '0',
      NODE_ENV: 'development',
      TEMPORAL_ADDRESS: undefined,
      BODY_LIMIT: '2048',
    });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every oversized body with its 413 while the client is still sending, never a reset (6 times in a row, declared and chunked)', async () => {
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(
        await postLargeBody(service.url, '/v2/generate', 2 * 1024 * 1024, serviceHeader(demo.credentials.dev)),
      );
      outcomes.push(
        await postLargeBody(service.url, '/v2/generate', 6 * 1024 * 1024, serviceHeader(demo.credentials.dev), {
          chunked: true,
        }),
      );
    }
    expect(outcomes).toEqual([413, 413, 413, 413, 413, 413]);
  });

  it('answers a large body without credentials with 401, unread, never a reset (6 times in a row)', async () => {
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(await postLargeBody(service.url, '/v2/generate', 2 * 1024 * 1024));
      outcomes.push(await postLargeBody(service.url, '/graphql', 2 * 1024 * 1024));
    }
    expect(outcomes).toEqual([401, 401, 401, 401, 401, 401]);
  });
});
