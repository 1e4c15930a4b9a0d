import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** Options of this route's protective headers, over the service's (e.g. a page's own CSP). */
    helmet?: HelmetOptions;
  }
  interface FastifyContextConfig {
    /** The headers helmet sets with the route's options, recorded when the route is added. */
    securityHeaders?: Readonly<Record<string, string>>;
  }
}

/** One year, and the subdomains: the figure browsers' preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

const SERVICE_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  strictTransportSecurity: false,
};

/**
 * Protective headers on every answer (helmet): API answers are data, never a document to render,
 * frame or sniff, so their CSP allows nothing (`default-src 'none'; frame-ancestors 'none'`);
 * `nosniff`; `Referrer-Policy: no-referrer` (editor URLs carry the project id, which must not travel
 * to another site in a Referer). Pages set their own CSP (src/web/page-csp.ts) and turn helmet's
 * parts off with the route's `helmet` option; files and catalogue pictures are embedded by shops'
 * pages and e-mails (`Cross-Origin-Resource-Policy: cross-origin` on their routes). HSTS only on
 * answers that went out over TLS: on plain HTTP it would be meaningless, and Fastify's
 * `request.protocol` also reads X-Forwarded-Proto once the proxy is trusted.
 *
 * Helmet's headers do not depend on the request (our options have no per-request directive), so
 * they are recorded once per route, when the route is added, and put among the answer's own headers
 * by one callback hook: no middleware chain per request, and no raw `setHeader`, which would send
 * every other header of the answer through Node's slower progressive path (docs/performance.md).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const serviceHeaders = helmetHeaders(SERVICE_HEADERS);
  app.addHook('onRoute', (route) => {
    if (!route.helmet) return;
    route.config = {
      ...route.config,
      securityHeaders: helmetHeaders({ ...SERVICE_HEADERS, ...route.helmet } as HelmetOptions),
    };
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    reply.headers(request.routeOptions.config.securityHeaders ?? serviceHeaders);
    done();
  });
}

/** The headers helmet's middleware sets with `options`, by lower-case name, run once on a recorder. */
function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}).flat() : [];
  if (directives.some((value) => typeof value === 'function'))
    throw new Error('a per-request CSP directive cannot be recorded once per route');
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return Object.freeze(headers);
}

/** Answers other sites may embed (`<img>` in a shop's page or e-mail: files, catalogue pictures) say so. */
export const EMBEDDABLE_ACROSS_ORIGINS = ['cross-origin-resource-policy', 'cross-origin'] as const;
