import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyRequest } from 'fastify';
import type { RequestContext, Tenant } from '../services/context';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook of the route family's plugin. */
    tenant?: Tenant;
  }
}

/** The service context of an authenticated request, with its own EntityManager fork. */
export function contextOf(request: FastifyRequest, em: EntityManager): RequestContext {
  if (!request.tenant) throw new Error(`route ${request.routeOptions.url} is missing its authentication hook`);
  return { tenant: request.tenant, em: em.fork(), requestId: request.id };
}
