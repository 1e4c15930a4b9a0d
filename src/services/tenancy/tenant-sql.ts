import { driverRows } from '../../db/driver-rows';
import type { RequestContext, Tenant } from '../context';

/**
 * How each tenant-owned table that plain SQL reads names its owner: a client and one of its
 * environments, or a client alone (the catalogue and markets are shared by dev and prod). A table
 * missing here cannot be read through `selectOfTenant`: add it with its columns first.
 */
const OWNER_COLUMNS = {
  projects: ['client_id', 'env'],
  end_users: ['client_id', 'env'],
  markets: ['client_id'],
} as const satisfies Record<string, readonly ('client_id' | 'env')[]>;

type TenantTable = keyof typeof OWNER_COLUMNS;

/** One SELECT of tenant-owned tables, every one of them (the first and each joined) scoped to the caller. */
export interface TenantSelect {
  columns: string;
  /** The first table and its alias. */
  from: readonly [TenantTable, string];
  /** Inner joins: table, alias, join condition. */
  join?: readonly (readonly [TenantTable, string, string])[];
  /** Conditions beyond the tenant's, with `?` placeholders for `params`. */
  where?: string;
  params?: readonly unknown[];
  orderBy?: string;
  limit?: number;
}

const ALIAS = /^[a-z][a-z0-9_]*$/;

/**
 * The statement's text and parameters: the tenant's condition on every table comes first in the
 * WHERE, built here from OWNER_COLUMNS, so no statement written through it can leave one out. Raw
 * SQL is outside the ORM's tenant filter (src/db/tenant-filter.ts); this is its plain-SQL twin.
 */
export function tenantSelectSql(tenant: Tenant, select: TenantSelect): { sql: string; params: unknown[] } {
  const tables = [[...select.from, ''] as const, ...(select.join ?? [])];
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const [table, alias] of tables) {
    if (!ALIAS.test(alias)) throw new Error(`"${alias}" is not a table alias`);
    for (const column of OWNER_COLUMNS[table]) {
      conditions.push(`${alias}.${column} = ?`);
      params.push(column === 'env' ? tenant.env : tenant.clientId);
    }
  }
  if (select.where) conditions.push(`(${select.where})`);
  params.push(...(select.params ?? []));
  const joins = (select.join ?? []).map(([table, alias, on]) => ` JOIN ${table} ${alias} ON ${on}`).join('');
  let sql = `SELECT ${select.columns} FROM ${select.from[0]} ${select.from[1]}${joins} WHERE ${conditions.join(' AND ')}`;
  if (select.orderBy) sql += ` ORDER BY ${select.orderBy}`;
  if (select.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(select.limit);
  }
  return { sql, params };
}

/**
 * Runs a `TenantSelect` as the caller on the ORM's pool, without an EntityManager fork (a hot
 * read's fork cost more than its SELECT) and through the driver (src/db/driver-rows.ts).
 */
export function selectOfTenant<T>(ctx: RequestContext, select: TenantSelect): Promise<T[]> {
  const { sql, params } = tenantSelectSql(ctx.tenant, select);
  let n = 0;
  return driverRows<T>(
    ctx.db,
    sql.replace(/\?/g, () => `$${++n}`),
    params,
  );
}
