import type { AbstractSqlConnection } from '@mikro-orm/postgresql';

/** What the ORM's pool hands out: a node-postgres client. */
interface DriverClient {
  query(config: { text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * One SELECT (`$1`… placeholders) on a connection of the ORM's own pool, through node-postgres
 * directly: for the hot plain-SQL reads, where MikroORM's `execute` and knex's query building,
 * logging and result mapping cost more CPU than the query (docs/performance.md). Same pool, same
 * type parsers (MikroORM sets them on node-postgres globally), no transaction: a read of committed
 * rows, as `execute` without a transaction context is.
 */
export async function driverRows<T>(
  connection: AbstractSqlConnection,
  text: string,
  values: readonly unknown[],
): Promise<T[]> {
  const { client } = connection.getKnex();
  const driver = (await client.acquireConnection()) as DriverClient;
  try {
    return (await driver.query({ text, values })).rows as T[];
  } finally {
    client.releaseConnection(driver);
  }
}
