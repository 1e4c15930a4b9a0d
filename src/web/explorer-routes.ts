import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { projectPath } from '../config/project-root';

const EXPLORER_PATH = '/graphql/explorer';
/** GraphiQL, React and Monaco bundled by scripts/build-explorer.mjs (npm start's prestart builds it). */
const BUNDLE_DIR = projectPath('.build/explorer');

/**
 * The explorer's CSP: everything from this origin (its bundle, Monaco's workers, /graphql), nothing
 * inline but styles: Monaco writes its theme into <style> elements and lays lines out with style
 * attributes at run time, with no nonce (without 'unsafe-inline' Chromium blocks ~600 of them and the
 * editor is unusable). Inline styles cannot run script; script-src stays 'self', with no eval.
 */
const EXPLORER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The GraphQL explorer (GraphiQL) at /graphql/explorer, served from the service itself, and a browser's
 * GET /graphql (it asks for HTML) sent there; GraphQL clients' GETs ask for JSON and go on to Apollo.
 * The operator gives the API's own credentials in its Headers tab. Registered only when
 * GRAPHQL_EXPLORER is on (the default outside production): otherwise the path is a 404 like any other.
 * Call it before GraphQL's routes: the redirect is a hook of the whole app.
 */
export async function registerGraphqlExplorer(app: FastifyInstance, log: Logger): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.headers.upgrade || request.url.split('?')[0] !== '/graphql') return;
    if (!/\btext\/html\b/.test(request.headers.accept ?? '')) return;
    return reply.redirect(EXPLORER_PATH, 302);
  });

  const built = existsSync(path.join(BUNDLE_DIR, 'explorer.js'));
  if (!built)
    log.warn({ bundle: BUNDLE_DIR }, 'the GraphQL explorer is not built (node scripts/build-explorer.mjs builds it)');
  const page = await readFile(projectPath('web/explorer/explorer.html'), 'utf8');
  await app.register(async (scope) => {
    scope.get(
      EXPLORER_PATH,
      { schema: { hide: true }, helmet: { contentSecurityPolicy: false } },
      async (_request, reply) => {
        if (!built) {
          return reply
            .status(503)
            .type('text/plain; charset=utf-8')
            .send('The GraphQL explorer is not built: run `node scripts/build-explorer.mjs`.\n');
        }
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .header('content-security-policy', EXPLORER_CSP)
          .send(page);
      },
    );
    if (!built) return;
    await scope.register(fastifyStatic, {
      root: BUNDLE_DIR,
      prefix: `${EXPLORER_PATH}/`,
      decorateReply: false,
      index: false,
      list: false,
      // Rebuilt with its sources: revalidated, not cached for long.
      cacheControl: false,
      setHeaders: (reply) => reply.header('cache-control', 'no-cache'),
      allowedPath: (pathName) => !pathName.endsWith('stamp.txt'),
    });
  });
}
