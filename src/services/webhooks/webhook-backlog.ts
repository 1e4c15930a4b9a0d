import type { EntityManager } from '@mikro-orm/postgresql';
import { ENVIRONMENTS } from '../../domain/environment';
import type { WebhookBacklog } from '../../metrics/service-state';

/**
 * The deliveries not yet delivered nor given up, per environment, and how long the oldest has
 * waited: since it was recorded, or since its replay re-opened it (`updated_at` moves only when
 * a delivery's status does). Across every tenant, in one grouped query; both environments are
 * always reported (0 when nothing waits).
 */
export async function webhookBacklog(em: EntityManager): Promise<WebhookBacklog[]> {
  const rows = await em.getConnection().execute<{ env: string; pending: number; oldest_seconds: number | string }[]>(
    `SELECT env, count(*)::int AS pending, extract(epoch FROM now() - min(updated_at))::float8 AS oldest_seconds
       FROM webhook_deliveries WHERE status = 'pending' GROUP BY env`,
  );
  return ENVIRONMENTS.map((env) => {
    const row = rows.find((candidate) => candidate.env === env);
    return { env, pending: row?.pending ?? 0, oldestPendingSeconds: row ? Math.max(0, Number(row.oldest_seconds)) : 0 };
  });
}
