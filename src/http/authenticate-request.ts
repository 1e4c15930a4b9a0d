import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Presented } from '../services/tenancy/authenticate';

/** What an HTTP request presents: its `X-Service`, `X-Editor-Project` and `X-Editor-Key` headers. */
function presentedBy(request: FastifyRequest): Presented {
  const header = request.headers['x-service'];
  const { 'x-editor-project': editorProject, 'x-editor-key': editorKey } = request.headers;
  return { ...(header !== undefined ? { clientCredential: { header } } : {}), editorProject, editorKey };
}

/**
 * Authenticates every request of the plugin `app` by its headers when it arrives, before its body
 * is read (the Authenticator decides who it is), and only then lets its routes read bodies up to
 * `bodyLimit` (BODY_LIMIT); everything else reads at most UNAUTHENTICATED_BODY_LIMIT.
 */
export function authenticateBeforeTheBody(
  app: FastifyInstance,
  authenticator: Authenticator,
  options: { editor: boolean; bodyLimit: number },
): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= options.bodyLimit;
  });
  // A callback hook: a client whose credential is cached is known without a promise (an async
  // hook and the Authenticator's chain cost every request several, docs/performance.md).
  app.addHook('onRequest', (request, _reply, done) => {
    const presented = presentedBy(request);
    const known = authenticator.identifyFromCache(presented);
    if (known) {
      request.tenant = known.tenant;
      request.projectScope = known.projectScope;
      done();
      return;
    }
    authenticator.identify(presented, request.ip, { editor: options.editor }).then((identity) => {
      request.tenant = identity.tenant;
      request.projectScope = identity.projectScope;
      done();
    }, done);
  });
}
