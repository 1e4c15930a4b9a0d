import net from 'node:net';
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import {
  createSafeFetch,
  OutboundError,
  type ResolvedAddress,
  type SafeFetch,
  type SafeFetchOptions,
} from '../../src/outbound/safe-fetch';
import { installConnectionTripwire, type ConnectionTripwire } from './connection-tripwire';
import { startLoopbackServer, type Handler, type LoopbackServer } from './loopback-server';

// Every request in this file goes to servers bound to 127.0.0.1 or ::1 and started here. Refusals
// of other addresses are shown with IP literals or an injected resolver, and the tripwire proves
// that no connection was even attempted.

const JPEG = Buffer.from('ffd8ffe000104a46494600', 'hex');

const routes: Record<string, Handler> = {
  '/photo.jpg': (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG),
  '/notes.txt': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('not a photo'),
  '/missing': (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('nope'),
  '/echo': (req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ method: req.method, headers: req.headers, body: req.body })),
  '/chain/1': (_req, res) => res.writeHead(302, { location: '/chain/2' }).end(),
  '/chain/2': (_req, res, server) => res.writeHead(301, { location: `${server.origin}/chain/3` }).end(),
  '/chain/3': (_req, res) => res.writeHead(307, { location: '4?step=4' }).end(),
  '/chain/4': (_req, res) => res.writeHead(308, { location: '/final.jpg' }).end(),
  '/final.jpg': (_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG),
  '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
  '/to-metadata': (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/to-internal-host': (_req, res) => res.writeHead(302, { location: 'http://internal.example.test/' }).end(),
  '/to-ftp': (_req, res) => res.writeHead(302, { location: 'ftp://127.0.0.1/photo.jpg' }).end(),
  '/to-other-origin': (_req, res, server) =>
    res.writeHead(302, { location: `http://other.example.test:${server.port}/echo` }).end(),
  '/post-303': (_req, res) => res.writeHead(303, { location: '/echo' }).end(),
  '/post-302': (_req, res) => res.writeHead(302, { location: '/echo' }).end(),
  '/post-307': (_req, res) => res.writeHead(307, { location: '/echo' }).end(),
  // Announces a large body and then sends nothing: only the announced length can refuse it in time.
  '/announces-2000': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '2000' });
    res.flushHeaders();
  },
  '/chunked-1000': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    for (let i = 0; i < 10; i++) res.write(Buffer.alloc(100, i));
    res.end();
  },
  // Streams without Content-Length and never ends: only a client that counts bytes gets out.
  '/endless': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const pump = setInterval(() => res.write(Buffer.alloc(256)), 5);
    res.on('close', () => clearInterval(pump));
  },
  '/never-answers': () => undefined,
  // Sends headers and a first byte, then goes quiet: the deadline must cover the body too.
  '/stalls-mid-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '100' });
    res.write('x');
  },
};

const handler: Handler = (req, res, server) => {
  const route = routes[new URL(req.path, 'http://x').pathname];
  if (route) route(req, res, server);
  else res.writeHead(500).end(`no route ${req.path}`);
};

let v4: LoopbackServer;
let v6: LoopbackServer;
let tripwire: ConnectionTripwire;

beforeAll(async () => {
  tripwire = installConnectionTripwire();
  v4 = await startLoopbackServer('127.0.0.1', handler);
  v6 = await startLoopbackServer('::1', handler);
});

afterAll(async () => {
  tripwire?.restore();
  await v4?.close();
  await v6?.close();
});

afterEach(() => {
  const stopped = tripwire.stopped.splice(0);
  expect(stopped, 'a test tried to connect to a non-loopback address').toEqual([]);
});

/** A resolver that answers from a fixed table and counts its calls; unknown names fail like DNS. */
function fakeResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };
  return { lookup, calls };
}

function client(options: Partial<SafeFetchOptions> & { hosts?: Record<string, string[]> } = {}): SafeFetch {
  const { hosts, ...rest } = options;
  return createSafeFetch({ allowLoopback: true, lookup: fakeResolver(hosts ?? {}).lookup, ...rest });
}

async function outboundError(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected the call to fail').toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

/** Runs a call that must be refused before any connection, and returns its error. */
async function refusedWithoutConnecting(promise: Promise<unknown>): Promise<OutboundError> {
  const attemptsBefore = tripwire.attempts.length;
  const requestsBefore = v4.received.length + v6.received.length;
  const error = await outboundError(promise);
  expect(tripwire.attempts.slice(attemptsBefore), 'no connection may be attempted').toEqual([]);
  expect(v4.received.length + v6.received.length).toBe(requestsBefore);
  return error;
}

const literal = (address: string) => (net.isIPv6(address) ? `[${address}]` : address);

describe('loopback', () => {
  it('fetches from a loopback server when loopback is allowed', async () => {
    const response = await client()(`${v4.origin}/photo.jpg`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.body.equals(JPEG)).toBe(true);
    expect(response.url).toBe(`${v4.origin}/photo.jpg`);
    expect(tripwire.attempts.at(-1)).toBe(`127.0.0.1:${v4.port}`);
  });

  it('fetches from an IPv6 loopback server and through a hostname that resolves to loopback', async () => {
    const fetch = client({ hosts: { 'fixtures.example.test': ['127.0.0.1'], 'fixtures6.example.test': ['::1'] } });
    expect((await fetch(`${v6.origin}/photo.jpg`)).body.equals(JPEG)).toBe(true);

    const viaName = await fetch(`http://fixtures.example.test:${v4.port}/echo`);
    expect(JSON.parse(viaName.body.toString()).headers.host).toBe(`fixtures.example.test:${v4.port}`);
    expect(tripwire.attempts.at(-1)).toBe(`127.0.0.1:${v4.port}`);

    await fetch(`http://fixtures6.example.test:${v6.port}/photo.jpg`);
    expect(tripwire.attempts.at(-1)).toBe(`::1:${v6.port}`);
  });

  it.each([
    ['127.0.0.1', (s: LoopbackServer) => `http://127.0.0.1:${s.port}/photo.jpg`],
    ['127.1.2.3', (s: LoopbackServer) => `http://127.1.2.3:${s.port}/photo.jpg`],
    ['::1', (s: LoopbackServer) => `http://[::1]:${s.port}/photo.jpg`],
    ['::ffff:127.0.0.1', (s: LoopbackServer) => `http://[::ffff:127.0.0.1]:${s.port}/photo.jpg`],
    ['2130706433 (127.0.0.1 as one number)', (s: LoopbackServer) => `http://2130706433:${s.port}/photo.jpg`],
    ['a hostname resolving to 127.0.0.1', (s: LoopbackServer) => `http://fixtures.example.test:${s.port}/photo.jpg`],
    ['a hostname resolving to ::1', (s: LoopbackServer) => `http://fixtures6.example.test:${s.port}/photo.jpg`],
  ])('refuses %s when loopback is not allowed', async (_name, url) => {
    const fetch = client({
      allowLoopback: false,
      hosts: { 'fixtures.example.test': ['127.0.0.1'], 'fixtures6.example.test': ['::1'] },
    });
    const error = await refusedWithoutConnecting(fetch(url(v4)));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.message).toContain(url(v4));
  });
});

describe('addresses that stay refused when loopback is allowed', () => {
  const blocked = [
    '10.0.0.7',
    '172.16.5.4',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.251',
    '198.18.0.1',
    '192.0.2.10',
    '240.0.0.1',
    'fe80::1',
    'fc00::1',
    'fd12:3456:789a::1',
    '::',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    '64:ff9b::a9fe:a9fe', // NAT64 of the metadata address
    '64:ff9b::7f00:1', // NAT64 of loopback: the gateway's loopback, not ours
    '2002:a00:1::1', // 6to4
    '::7f00:1', // IPv4-compatible, deprecated
    '2001:db8::1', // documentation
  ];

  it.each(blocked)('refuses the IP literal %s before connecting', async (address) => {
    const error = await refusedWithoutConnecting(client()(`http://${literal(address)}/latest/meta-data/`));
    expect(error.code).toBe('BLOCKED_ADDRESS');
  });

  it.each(blocked)('refuses a hostname that resolves to %s before connecting', async (address) => {
    const fetch = client({ hosts: { 'photos.example.test': [address] } });
    const error = await refusedWithoutConnecting(fetch('http://photos.example.test/a.jpg'));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.message).toContain('http://photos.example.test/a.jpg');
  });

  it.each([
    ['decimal 169.254.169.254', 'http://2852039166/'],
    ['hex 10.0.0.1', 'http://0xa.0.0.1/'],
    ['short 10.1', 'http://10.1/'],
    ['hex-written mapped IPv6', 'http://[::ffff:a9fe:a9fe]/'],
    ['padded IPv6 link-local', 'http://[fe80:0000:0000:0000:0000:0000:0000:0001]/'],
  ])('refuses %s however it is written', async (_name, url) => {
    expect((await refusedWithoutConnecting(client()(url))).code).toBe('BLOCKED_ADDRESS');
  });

  it.each([[['127.0.0.1', '10.0.0.1']], [['10.0.0.1', '127.0.0.1']], [['::1', 'fe80::1']]])(
    'refuses a hostname when any of its addresses is refused: %j',
    async (addresses) => {
      const fetch = client({ hosts: { 'mixed.example.test': addresses } });
      const error = await refusedWithoutConnecting(fetch(`http://mixed.example.test:${v4.port}/photo.jpg`));
      expect(error.code).toBe('BLOCKED_ADDRESS');
    },
  );
});

describe('redirects', () => {
  it('follows a chain of 302, 301, 307 and 308 within loopback and reports the final URL', async () => {
    const response = await client()(`${v4.origin}/chain/1`);
    expect(response.status).toBe(200);
    expect(response.body.equals(JPEG)).toBe(true);
    expect(response.url).toBe(`${v4.origin}/final.jpg`);
    expect(v4.received.slice(-5).map((r) => r.path)).toEqual([
      '/chain/1',
      '/chain/2',
      '/chain/3',
      '/chain/4?step=4',
      '/final.jpg',
    ]);
  });

  it('refuses a redirect to the metadata address without connecting to it', async () => {
    const attemptsBefore = tripwire.attempts.length;
    const error = await outboundError(client()(`${v4.origin}/to-metadata`));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.message).toContain('169.254.169.254');
    expect(tripwire.attempts.slice(attemptsBefore)).toEqual([`127.0.0.1:${v4.port}`]);
    expect(v4.received.at(-1)?.path).toBe('/to-metadata');
  });

  it('resolves the hostname of each hop and refuses one that resolves to a private address', async () => {
    const resolver = fakeResolver({ 'start.example.test': ['127.0.0.1'], 'internal.example.test': ['10.0.0.5'] });
    const fetch = createSafeFetch({ allowLoopback: true, lookup: resolver.lookup });
    const error = await outboundError(fetch(`http://start.example.test:${v4.port}/to-internal-host`));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(resolver.calls).toEqual(['start.example.test', 'internal.example.test']);
  });

  it('refuses a redirect to a non-http URL', async () => {
    expect((await outboundError(client()(`${v4.origin}/to-ftp`))).code).toBe('INVALID_URL');
  });

  it('gives up after maxRedirects', async () => {
    const before = v4.received.length;
    const error = await outboundError(client({ maxRedirects: 2 })(`${v4.origin}/loop`));
    expect(error.code).toBe('TOO_MANY_REDIRECTS');
    expect(v4.received.length - before).toBe(3); // the first request and two followed redirects
  });

  it('follows exactly maxRedirects redirects', async () => {
    const response = await client({ maxRedirects: 4 })(`${v4.origin}/chain/1`);
    expect(response.url).toBe(`${v4.origin}/final.jpg`);
    const error = await outboundError(client({ maxRedirects: 3 })(`${v4.origin}/chain/1`));
    expect(error.code).toBe('TOO_MANY_REDIRECTS');
  });

  it.each([
    ['/post-303', 'GET', ''],
    ['/post-302', 'GET', ''],
    ['/post-307', 'POST', 'payload'],
  ])('a POST redirected by %s continues as %s', async (path, method, body) => {
    const response = await client()(`${v4.origin}${path}`, {
      method: 'POST',
      body: 'payload',
      headers: { 'content-type': 'text/plain' },
    });
    const echoed = JSON.parse(response.body.toString());
    expect(echoed.method).toBe(method);
    expect(echoed.body).toBe(body);
    expect(echoed.headers['content-type']).toBe(method === 'GET' ? undefined : 'text/plain');
  });

  it('does not forward credentials to another origin, and sends the hostname as Host', async () => {
    const fetch = client({ hosts: { 'other.example.test': ['127.0.0.1'] } });
    const response = await fetch(`${v4.origin}/to-other-origin`, {
      headers: { Authorization: 'Bearer secret', 'X-Trace': 't1' },
    });
    const echoed = JSON.parse(response.body.toString());
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers['x-trace']).toBe('t1');
    expect(echoed.headers.host).toBe(`other.example.test:${v4.port}`);
    expect(response.url).toBe(`http://other.example.test:${v4.port}/echo`);
  });
});

describe('DNS rebinding', () => {
  it('connects to the address it vetted, resolving once per hop', async () => {
    let calls = 0;
    const rebinding = async (): Promise<ResolvedAddress[]> => {
      calls++;
      return [{ address: calls === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const fetch = createSafeFetch({ allowLoopback: true, lookup: rebinding });
    const attemptsBefore = tripwire.attempts.length;

    const response = await fetch(`http://rebind.example.test:${v4.port}/echo`);

    expect(response.status).toBe(200);
    expect(calls).toBe(1);
    expect(v4.received.at(-1)?.headers.host).toBe(`rebind.example.test:${v4.port}`);
    expect(tripwire.attempts.slice(attemptsBefore)).toEqual([`127.0.0.1:${v4.port}`]);
  });
});

describe('size, time, status and type limits', () => {
  it('refuses a body as soon as its Content-Length exceeds maxBytes', async () => {
    const error = await outboundError(client({ maxBytes: 1000, timeoutMs: 5000 })(`${v4.origin}/announces-2000`));
    expect(error.code).toBe('TOO_LARGE');
  });

  it('accepts a body of exactly maxBytes and refuses one byte more (no Content-Length)', async () => {
    const response = await client()(`${v4.origin}/chunked-1000`, { maxBytes: 1000 });
    expect(response.body.length).toBe(1000);
    expect(response.headers['content-length']).toBeUndefined();
    const error = await outboundError(client()(`${v4.origin}/chunked-1000`, { maxBytes: 999 }));
    expect(error.code).toBe('TOO_LARGE');
  });

  it('stops reading an endless body at maxBytes and hangs up', async () => {
    const closedBefore = v4.closedConnections();
    const error = await outboundError(client({ timeoutMs: 10_000 })(`${v4.origin}/endless`, { maxBytes: 10_000 }));
    expect(error.code).toBe('TOO_LARGE');
    await expect.poll(() => v4.closedConnections()).toBeGreaterThan(closedBefore);
  });

  it('times out on a server that never answers, and hangs up', async () => {
    const closedBefore = v4.closedConnections();
    const started = Date.now();
    const error = await outboundError(client({ timeoutMs: 300 })(`${v4.origin}/never-answers`));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain(`${v4.origin}/never-answers`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3000);
    await expect.poll(() => v4.closedConnections()).toBeGreaterThan(closedBefore);
  });

  it('times out on a body that stalls, per call timeoutMs overriding the client default', async () => {
    const error = await outboundError(
      client({ timeoutMs: 60_000 })(`${v4.origin}/stalls-mid-body`, { timeoutMs: 300 }),
    );
    expect(error.code).toBe('TIMEOUT');
  });

  it('times out while resolving, and never connects after the deadline', async () => {
    let finishLookup: (addresses: ResolvedAddress[]) => void = () => undefined;
    const slowLookup = () => new Promise<ResolvedAddress[]>((resolve) => (finishLookup = resolve));
    const fetch = createSafeFetch({ allowLoopback: true, lookup: slowLookup, timeoutMs: 200 });
    const attemptsBefore = tripwire.attempts.length;
    const error = await outboundError(fetch(`http://slow-dns.example.test:${v4.port}/photo.jpg`));
    expect(error.code).toBe('TIMEOUT');
    finishLookup([{ address: '127.0.0.1', family: 4 }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tripwire.attempts.slice(attemptsBefore)).toEqual([]);
  });

  it('reports a 404 as HTTP_STATUS with the status', async () => {
    const error = await outboundError(client()(`${v4.origin}/missing`));
    expect(error.code).toBe('HTTP_STATUS');
    expect(error.status).toBe(404);
    expect(error.message).toContain(`${v4.origin}/missing`);
  });

  it('lets the caller decide which statuses are fine', async () => {
    const response = await client()(`${v4.origin}/missing`, { okStatuses: (status) => status === 404 });
    expect(response.status).toBe(404);
    expect(response.body.toString()).toBe('nope');
  });

  it('refuses a response whose content type is not the accepted one', async () => {
    const error = await outboundError(client()(`${v4.origin}/notes.txt`, { accept: /^image\// }));
    expect(error.code).toBe('BAD_CONTENT_TYPE');
    expect(error.message).toContain('text/plain');
    const photo = await client()(`${v4.origin}/photo.jpg`, { accept: /^image\// });
    expect(photo.body.equals(JPEG)).toBe(true);
  });
});

describe('invalid URLs and unreachable hosts', () => {
  it.each([
    'ftp://127.0.0.1/photo.jpg',
    'file:///etc/passwd',
    'not a url',
    'http://user:pw@127.0.0.1/photo.jpg',
    'http://user@127.0.0.1/photo.jpg',
  ])('refuses %s as INVALID_URL', async (url) => {
    const error = await refusedWithoutConnecting(client()(url));
    expect(error.code).toBe('INVALID_URL');
  });

  it('does not repeat a password from the URL in its message', async () => {
    const error = await outboundError(client()(`http://user:hunter2@127.0.0.1:${v4.port}/photo.jpg`));
    expect(error.message).not.toContain('hunter2');
  });

  it('reports a closed loopback port as UNREACHABLE', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const error = await outboundError(client()(`http://127.0.0.1:${closedPort}/photo.jpg`));
    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('reports a name that does not resolve as UNREACHABLE', async () => {
    const error = await refusedWithoutConnecting(client()('http://no-such-host.example.test/photo.jpg'));
    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toContain('ENOTFOUND');
  });
});
