import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** Options of this route's protective headers, over the service's (e.g. a page's own CSP). */
    helmet?: HelmetOptions;
  }
  interface FastifyContextConfig {
    /** The route's helmet middleware, made once when the route is added. */
    securityHeaders?: SecurityHeaders;
  }
}

type SecurityHeaders = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

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
 * Helmet's middleware is made once per route, when the route is added, and applied by one callback
 * hook: @fastify/helmet made it anew on every request, with an async hook besides, a visible share
 * of a hot read's CPU (docs/performance.md).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const serviceHeaders = helmet(SERVICE_HEADERS);
  app.addHook('onRoute', (route) => {
    if (!route.helmet) return;
    route.config = { ...route.config, securityHeaders: helmet({ ...SERVICE_HEADERS, ...route.helmet } as HelmetOptions) };
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    (request.routeOptions.config.securityHeaders ?? serviceHeaders)(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
}

/** Answers other sites may embed (`<img>` in a shop's page or e-mail: files, catalogue pictures) say so. */
export const EMBEDDABLE_ACROSS_ORIGINS = ['cross-origin-resource-policy', 'cross-origin'] as const;
