import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { addressRefusal } from './address-policy';
import { inSpan, traceHeaders } from '../telemetry/trace-context';

/**
 * The one outbound HTTP client of the service (photo and CSV downloads, webhooks, printer calls).
 *
 * Every hop resolves its hostname once, refuses the call unless every resolved address is allowed
 * (see address-policy.ts), and then connects to exactly those vetted addresses, so a DNS answer
 * that changes between the check and the connection (DNS rebinding) cannot reach a private target.
 * Redirects are followed by hand so that each one is checked the same way.
 */

export type OutboundErrorCode =
  | 'INVALID_URL'
  | 'BLOCKED_ADDRESS'
  | 'UNREACHABLE'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'HTTP_STATUS'
  | 'BAD_CONTENT_TYPE'
  | 'TOO_MANY_REDIRECTS';

export class OutboundError extends Error {
  readonly code: OutboundErrorCode;
  /** The response status, for HTTP_STATUS. */
  readonly status?: number;

  constructor(code: OutboundErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OutboundError';
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeFetchOptions {
  /** Opens loopback (127.0.0.0/8, ::1) only; private, link-local and metadata stay refused. */
  allowLoopback: boolean;
  /** Resolves a hostname to all its addresses; defaults to the system resolver. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Whole call, redirects and body included. Default 15 s. */
  timeoutMs?: number;
  /** Largest response body accepted. Default 25 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
}

interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
  maxBytes?: number;
  /** Required response content type, e.g. /^image\//; tested against the Content-Type header. */
  accept?: RegExp;
  /** Which statuses count as success; default 2xx. */
  okStatuses?: (status: number) => boolean;
  /**
   * Streams the body: each chunk is handed over (and awaited, so a slow consumer slows the
   * download) instead of being collected; the response's `body` is then empty. The size cap and
   * the deadline still apply.
   */
  onChunk?: (chunk: Buffer) => void | Promise<void>;
}

export interface SafeFetchResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export type SafeFetch = (url: string, init?: SafeFetchInit) => Promise<SafeFetchResponse>;

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_USER_AGENT = 'photobook-service';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's credentials; not forwarded when a redirect leaves the origin. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dns.lookup(hostname, { all: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

export function createSafeFetch(options: SafeFetchOptions): SafeFetch {
  const resolve = options.lookup ?? systemLookup;
  const policy = { allowLoopback: options.allowLoopback };

  // One client span per call (redirects included); its `traceparent` goes to the receiver (a printer, a shop).
  return async function tracedFetch(url, init = {}) {
    const method = (init.method ?? 'GET').toUpperCase();
    return inSpan(`HTTP ${method}`, { kind: 'client', attributes: spanAttributesOf(url, method) }, async (span) => {
      try {
        const response = await safeFetch(url, { ...init, headers: { ...init.headers, ...traceHeaders() } });
        span.setAttribute('http.response.status_code', response.status);
        return response;
      } catch (error) {
        if (error instanceof OutboundError) {
          span.setAttribute('error.type', error.code);
          if (error.status !== undefined) span.setAttribute('http.response.status_code', error.status);
        }
        throw error;
      }
    });
  };

  async function safeFetch(url: string, init: SafeFetchInit = {}): Promise<SafeFetchResponse> {
    const timeoutMs = init.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = init.maxBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const okStatuses = init.okStatuses ?? ((status: number) => status >= 200 && status < 300);

    // One deadline for the whole call. Aborting it destroys the socket of whatever hop is running.
    const deadline = new AbortController();
    let hopLabel = describe(url);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new OutboundError('TIMEOUT', `${hopLabel} did not complete within ${timeoutMs} ms`);
        deadline.abort(error);
        reject(error);
      }, timeoutMs);
    });

    const work = (async (): Promise<SafeFetchResponse> => {
      let method = (init.method ?? 'GET').toUpperCase();
      let body = init.body;
      let headers = requestHeaders(init.headers, options.userAgent ?? DEFAULT_USER_AGENT);
      let target = parseTarget(url);
      for (let redirects = 0; ; redirects++) {
        // Messages name the URL as the caller gave it, and a redirect's target with where it came from.
        hopLabel = redirects === 0 ? describe(url) : `${describe(target.href)} (redirected from ${describe(url)})`;
        const addresses = await vet(target, hopLabel, resolve, policy, deadline.signal);
        const response = await send(target, hopLabel, addresses, { method, headers, body }, deadline.signal);
        const location = response.headers.location;

        if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location !== undefined) {
          response.destroy();
          if (redirects >= maxRedirects) {
            throw new OutboundError(
              'TOO_MANY_REDIRECTS',
              `${describe(url)} redirected more than ${maxRedirects} times`,
            );
          }
          const next = parseTarget(location, target, ` (redirect from ${describe(url)})`);
          const status = response.statusCode ?? 0;
          if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
            method = 'GET';
            body = undefined;
            headers = withoutBodyHeaders(headers);
          }
          if (next.origin !== target.origin) headers = withoutCredentials(headers);
          target = next;
          continue;
        }

        return await readResponse(response, target.href, hopLabel, {
          okStatuses,
          accept: init.accept,
          maxBytes,
          onChunk: init.onChunk,
        });
      }
    })();
    work.catch(() => undefined); // after a timeout its rejection is expected and nobody awaits it

    try {
      return await Promise.race([work, timedOut]);
    } finally {
      clearTimeout(timer);
      if (!deadline.signal.aborted) deadline.abort(); // nothing should outlive the call
    }
  }
}

/** Where a call goes, for its span: the URL without its query (photo and file URLs carry signatures there). */
function spanAttributesOf(url: string, method: string): Record<string, string | number> {
  try {
    const target = new URL(url);
    const port = target.port === '' ? (target.protocol === 'https:' ? 443 : 80) : Number(target.port);
    return {
      'http.request.method': method,
      'url.full': `${target.origin}${target.pathname}`,
      'server.address': bareHostname(target),
      'server.port': port,
    };
  } catch {
    return { 'http.request.method': method };
  }
}

/** Parses and checks an absolute URL, or a redirect Location relative to the current one. */
function parseTarget(raw: string, base?: URL, context = ''): URL {
  const name = `${describe(raw)}${context}`;
  let target: URL;
  try {
    target = new URL(raw, base);
  } catch {
    throw new OutboundError('INVALID_URL', `${name} is not a valid URL`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new OutboundError('INVALID_URL', `${name} is not an http or https URL`);
  }
  if (target.username !== '' || target.password !== '') {
    throw new OutboundError('INVALID_URL', `${name} must not contain a username or password`);
  }
  return target;
}

/** Resolves the hop's hostname once and returns its addresses only if every one is allowed. */
async function vet(
  target: URL,
  label: string,
  resolve: (hostname: string) => Promise<ResolvedAddress[]>,
  policy: { allowLoopback: boolean },
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const hostname = bareHostname(target);
  let addresses: ResolvedAddress[];
  if (net.isIP(hostname) !== 0) {
    addresses = [{ address: hostname, family: net.isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      signal.throwIfAborted();
      const code = (error as NodeJS.ErrnoException).code;
      throw new OutboundError('UNREACHABLE', `${label}: cannot resolve ${hostname}${code ? ` (${code})` : ''}`, {
        cause: error,
      });
    }
    signal.throwIfAborted();
    if (addresses.length === 0) {
      throw new OutboundError('UNREACHABLE', `${label}: ${hostname} has no addresses`);
    }
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal !== null) {
      throw new OutboundError('BLOCKED_ADDRESS', `${label} leads to ${address}, which is not allowed: ${refusal}`);
    }
  }
  // The family the socket gets must be the address's real family, whatever the resolver claimed.
  return addresses.map(({ address }) => ({ address, family: net.isIP(address) === 6 ? 6 : 4 }));
}

function bareHostname(target: URL): string {
  const { hostname } = target;
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Sends one request, connecting only to the vetted addresses: the socket's `lookup` answers with
 * them instead of asking DNS again. Host header and TLS server name stay the URL's hostname.
 */
function send(
  target: URL,
  label: string,
  addresses: ResolvedAddress[],
  request: { method: string; headers: Record<string, string>; body: string | Buffer | undefined },
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  signal.throwIfAborted();
  const pinnedLookup = ((
    _hostname: string,
    lookupOptions: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    if (lookupOptions?.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  }) as unknown as net.LookupFunction;

  const headers = { ...request.headers };
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));

  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request({
      protocol: target.protocol,
      hostname: bareHostname(target),
      port: target.port === '' ? undefined : Number(target.port),
      path: `${target.pathname}${target.search}`,
      method: request.method,
      headers,
      lookup: pinnedLookup,
      agent: false, // no pooled sockets: each hop connects to the addresses vetted for it
      signal,
    });
    req.on('response', resolve);
    req.on('error', (error) => {
      if (signal.aborted) reject(signal.reason);
      else reject(new OutboundError('UNREACHABLE', `${label}: ${errorText(error)}`, { cause: error }));
    });
    req.end(request.body);
  });
}

async function readResponse(
  response: http.IncomingMessage,
  url: string,
  label: string,
  rules: {
    okStatuses: (status: number) => boolean;
    accept: RegExp | undefined;
    maxBytes: number;
    onChunk?: (chunk: Buffer) => void | Promise<void>;
  },
): Promise<SafeFetchResponse> {
  const status = response.statusCode ?? 0;
  if (!rules.okStatuses(status)) {
    response.destroy();
    throw new OutboundError('HTTP_STATUS', `${label} answered HTTP ${status}`, { status });
  }
  const contentType = response.headers['content-type'] ?? '';
  if (rules.accept && !rules.accept.test(contentType)) {
    response.destroy();
    throw new OutboundError(
      'BAD_CONTENT_TYPE',
      `${label} answered with content type "${contentType || '(none)'}", expected ${rules.accept}`,
    );
  }
  const tooLarge = () => new OutboundError('TOO_LARGE', `${label} answered with more than ${rules.maxBytes} bytes`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > rules.maxBytes) {
    response.destroy();
    throw tooLarge();
  }

  const chunks: Buffer[] = [];
  let received = 0;
  let consumerError: { error: unknown } | undefined;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > rules.maxBytes) {
        response.destroy();
        throw tooLarge();
      }
      if (!rules.onChunk) chunks.push(chunk);
      else {
        try {
          await rules.onChunk(chunk);
        } catch (error) {
          response.destroy();
          consumerError = { error };
          throw error;
        }
      }
    }
  } catch (error) {
    // The consumer's own failure is its business, not a broken download.
    if (error instanceof OutboundError || consumerError) throw error;
    throw new OutboundError('UNREACHABLE', `${label}: the response broke off (${errorText(error)})`, { cause: error });
  }
  return { status, headers: flattenHeaders(response.headers), body: Buffer.concat(chunks), url };
}

function requestHeaders(given: Record<string, string> | undefined, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  for (const [name, value] of Object.entries(given ?? {})) {
    const key = name.toLowerCase();
    if (key === 'host' || key === 'content-length') continue; // always derived from the URL and body
    headers[key] = value;
  }
  return headers;
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _type, 'content-encoding': _encoding, ...rest } = headers;
  return rest;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name)));
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** The URL for messages, as given, except that a password in it is masked. */
function describe(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return JSON.stringify(raw);
  }
  if (parsed.password === '') return raw;
  parsed.password = '***';
  return parsed.href;
}

function errorText(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code && !message.includes(code) ? `${code} ${message}` : message;
}
