import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** One year, and the subdomains: the figure browsers' preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Protective headers on every answer (@fastify/helmet): API answers are data, never a document to
 * render, frame or sniff, so their CSP allows nothing (`default-src 'none'; frame-ancestors
 * 'none'`); `nosniff`; `Referrer-Policy: no-referrer` (editor URLs carry the project id, which must
 * not travel to another site in a Referer). Pages set their own CSP (src/web/page-csp.ts); files and
 * catalogue pictures are embedded by shops' pages and e-mails (`Cross-Origin-Resource-Policy:
 * cross-origin` on their routes). HSTS only on answers that went out over TLS: on plain HTTP it would
 * be meaningless, and Fastify's `request.protocol` also reads X-Forwarded-Proto once the proxy is trusted.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}

/** Answers other sites may embed (`<img>` in a shop's page or e-mail: files, catalogue pictures) say so. */
export const EMBEDDABLE_ACROSS_ORIGINS = ['cross-origin-resource-policy', 'cross-origin'] as const;
