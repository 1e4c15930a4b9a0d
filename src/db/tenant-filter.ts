import type { EntityManager, Filter } from '@mikro-orm/core';

type FilterDef = Parameters<typeof Filter>[0];

/**
 * Tenancy as a filter, not a habit. Every tenant-owned entity has the `tenant` filter, on by
 * default: it extends `TenantOwned` (client and environment) or `ClientOwned` (client only, the
 * catalogue and markets), or declares `ownedThrough` its parent. A request's EntityManager fork
 * carries the caller's `{clientId, env}` as its parameters, so a query that names no tenant still
 * sees only its own tenant's rows. The filter covers find, findOne, count, populate, nativeUpdate
 * and nativeDelete; not QueryBuilder or raw SQL.
 *
 * An EntityManager without parameters fails every query of a tenant-owned entity ("No arguments
 * provided for filter 'tenant'") instead of seeing all tenants: code that must cross tenants says
 * so with `ACROSS_TENANTS`, by name, where it queries.
 */
export const TENANT_FILTER = 'tenant';

export interface TenantFilterParams {
  clientId: string;
  env: string;
}

function paramsOf(args: Partial<TenantFilterParams> | undefined, needsEnv: boolean): TenantFilterParams {
  // An undefined value would drop the condition and widen the query: refuse instead.
  if (!args?.clientId || (needsEnv && !args.env))
    throw new Error(`the ${TENANT_FILTER} filter needs clientId${needsEnv ? ' and env' : ''}`);
  return args as TenantFilterParams;
}

/** Rows of one client and environment (`client` and `env` columns). */
export const ownedByTenant: FilterDef = {
  name: TENANT_FILTER,
  default: true,
  cond: (args) => {
    const { clientId, env } = paramsOf(args, true);
    return { client: clientId, env };
  },
};

/** Rows of one client, shared by its environments (the catalogue and markets). */
export const ownedByClient: FilterDef = {
  name: TENANT_FILTER,
  default: true,
  cond: (args) => ({ client: paramsOf(args, false).clientId }),
};

/** Rows owned through their parent (`photo.project`, `line.order`, `price.product`). */
export function ownedThrough(relation: string, parent: 'tenant' | 'client'): FilterDef {
  return {
    name: TENANT_FILTER,
    default: true,
    cond: (args) => {
      const { clientId, env } = paramsOf(args, parent === 'tenant');
      return { [relation]: parent === 'tenant' ? { client: clientId, env } : { client: clientId } };
    },
  };
}

/** Query options of the few queries that must see every tenant's rows. Search for it to find them all. */
export const ACROSS_TENANTS = { filters: { [TENANT_FILTER]: false } } as const;

/** Scopes an EntityManager (and every fork and transaction made from it later) to one tenant. */
export function scopeToTenant<E extends EntityManager>(em: E, tenant: TenantFilterParams): E {
  em.setFilterParams(TENANT_FILTER, { clientId: tenant.clientId, env: tenant.env });
  return em;
}

/**
 * Work outside a request (flow activities, printer events) starts from one row it found by primary
 * key with `ACROSS_TENANTS`; from then on it works as that row's tenant, like a request would.
 */
export function scopeToOwnerOf<E extends EntityManager>(em: E, row: { client: { id: string }; env: string }): E {
  return scopeToTenant(em, { clientId: row.client.id, env: row.env });
}
