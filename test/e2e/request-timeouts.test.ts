import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { serviceHeader } from '../support/http';
import { loadConfig } from '../../src/config';

/** How a raw connection ended: what the service wrote before closing it, or `open` when it still was after `waitMs`. */
interface Ending {
  answer: string;
  closed: boolean;
}

/**
 * A client that sends its request line and headers at once, then its body one byte every
 * `everyMs`: a body that would take far longer than any timeout to arrive (`Content-Length` 60000, under every body limit).
 */
function trickle(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  options: { waitMs: number; everyMs?: number },
): Promise<Ending> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      'content-length': '60000',
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n{`);
    const drip = setInterval(() => socket.writable && socket.write(' '), options.everyMs ?? 200);
    const finish = (closed: boolean) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closed });
    };
    const giveUp = setTimeout(() => finish(false), options.waitMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
  });
}

/** A body sent in `pieces` writes `pauseMs` apart, then the answer's status line. */
function paced(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  pieces: number,
  pauseMs: number,
): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    const bytes = Buffer.from(body);
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      'content-length': String(bytes.length),
      connection: 'close',
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    const size = Math.ceil(bytes.length / pieces);
    let sent = 0;
    const next = () => {
      socket.write(bytes.subarray(sent, sent + size));
      sent += size;
      if (sent < bytes.length) setTimeout(next, pauseMs);
    };
    next();
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer.split('\r\n')[0]));
    socket.on('error', reject);
  });
}

describe('request timeouts', () => {
  let api: TestService;

  beforeAll(async () => {
    // Short, for the test; the defaults are in docs/operations.md (Limits).
    api = await startTestService({ REQUEST_TIMEOUT: '2s', HEADERS_TIMEOUT: '1s' });
  });
  afterAll(() => api?.stop());

  // Before REQUEST_TIMEOUT the server's requestTimeout was Fastify's 0: each of these was still open when the client gave up.
  it('answers 408 and closes a body trickled by an authenticated client', async () => {
    const shop = await api.createClient('Slow shop');
    const ending = await trickle(api.url, '/v2/generate', serviceHeader(shop.credentials.dev), { waitMs: 15_000 });
    expect(ending.closed).toBe(true);
    expect(ending.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a body trickled without credentials, where the body authenticates itself (eCommerce)', async () => {
    const ending = await trickle(api.url, '/api/v2/misc/get-market.php', {}, { waitMs: 15_000 });
    expect(ending.closed).toBe(true);
    expect(ending.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a trickled body that was already answered 401 from its headers, without waiting for the rest', async () => {
    // unread-bodies.ts would read the rest for up to 10 s; the request timeout ends it first.
    const ending = await trickle(api.url, '/v2/generate', {}, { waitMs: 8_000 });
    expect(ending.closed).toBe(true);
    expect(ending.answer).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('reads a body that arrives in pieces within the timeout', async () => {
    const shop = await api.createClient('Patient shop');
    const body = JSON.stringify({
      sku: 'PB-HC-15-S',
      psp: 'local',
      marketId: 0,
      userId: 'someone',
      metadata: { note: 'x'.repeat(12_000) },
    });
    expect(await paced(api.url, '/v2/generate', serviceHeader(shop.credentials.dev), body, 4, 150)).toBe(
      'HTTP/1.1 200 OK',
    );
  });
});

describe('request timeout defaults', () => {
  it('give the largest body the API takes (BODY_LIMIT) a minute: about 18 KB/s', () => {
    const { limits } = loadConfig({});
    expect(limits.requestTimeoutMs).toBe(60_000);
    expect(limits.bodyLimitBytes / (limits.requestTimeoutMs / 1000)).toBeLessThan(18_000);
    expect(limits.headersTimeoutMs).toBeLessThanOrEqual(limits.requestTimeoutMs);
  });
});
