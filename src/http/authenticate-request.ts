import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Presented } from '../services/tenancy/authenticate';

/** What an HTTP request presents: its `X-Service` and `X-Editor-Project` headers. */
function presentedBy(request: FastifyRequest): Presented {
  const header = request.headers['x-service'];
  return { ...(header !== undefined ? { clientCredential: { header } } : {}), editorProject: request.headers['x-editor-project'] };
}

/**
 * Authenticates every request of the plugin `app` by its headers when it arrives, before its body
 * is read (the Authenticator decides who it is), and only then lets its routes read bodies up to
 * `bodyLimit` (BODY_LIMIT); everything else reads at most UNAUTHENTICATED_BODY_LIMIT.
 */
export function authenticateBeforeTheBody(app: FastifyInstance, authenticator: Authenticator, options: { editor: boolean; bodyLimit: number }): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= options.bodyLimit;
  });
  app.addHook('onRequest', async (request) => {
    const identity = await authenticator.identify(presentedBy(request), request.ip, { editor: options.editor });
    request.tenant = identity.tenant;
    request.projectScope = identity.projectScope;
  });
}
