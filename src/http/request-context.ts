import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import { createRequestContext, type RequestContext, type Tenant } from '../services/context';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook of the route family's plugin. */
    tenant?: Tenant;
    /** Set for an editor session (X-Editor-Project): the one project it may reach. */
    projectScope?: string;
  }
}

/** The service context of an authenticated request, with its own EntityManager fork scoped to its tenant. */
export function contextOf(request: FastifyRequest, em: EntityManager): RequestContext {
  if (!request.tenant) throw new Error(`route ${request.routeOptions.url} is missing its authentication hook`);
  return createRequestContext(em, request.tenant, request.id, request.projectScope);
}
