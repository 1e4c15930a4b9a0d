import type { EntityManager } from '@mikro-orm/postgresql';
import { ORDER_STATUSES } from '../../domain/order-status';
import type { StatusCount } from '../../metrics/service-state';

/**
 * How many order lines each status holds, across every tenant, for the operator's metrics: one
 * grouped count, every status reported (0 when none), so a status that empties shows 0 rather
 * than a series that stops.
 */
export async function orderLinesByStatus(em: EntityManager): Promise<StatusCount[]> {
  const rows = await em
    .getConnection()
    .execute<{ status: string; count: number }[]>(
      'SELECT status, count(*)::int AS count FROM order_lines GROUP BY status',
    );
  const counts = new Map(rows.map((row) => [row.status, row.count]));
  return ORDER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }));
}
