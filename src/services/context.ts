import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../domain/environment';

/** Who is calling: the client (tenant) and which of its partitions, sandbox or live. */
export interface Tenant {
  clientId: string;
  clientName: string;
  env: Environment;
}

/**
 * Passed first to every service call. Lookups go through `ctx.em` with `ctx.tenant` in the filter,
 * so another client's rows are "not found" by construction.
 */
export interface RequestContext {
  tenant: Tenant;
  /** A fork of the ORM's EntityManager, private to this request. */
  em: EntityManager;
  requestId: string;
}
