import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Environment } from '../../domain/environment';
import { type PeriodicPass, startPeriodicPass } from '../../logger/periodic-pass';
import { inTraceOf } from '../../telemetry/trace-context';
import { startDelivery, type DeliveryStartDeps } from './start-delivery';

/** Deliveries started per pass; the rest wait for the next pass. */
const RELAY_BATCH = 100;
/** How often the relay looks for deliveries nobody started; the latency of an event's first attempt. */
const OUTBOX_RELAY_INTERVAL_MS = 500;

/**
 * Starts the flows of pending deliveries that the outbox holds but nobody started (every event
 * delivery: its writer only commits it). Rows are claimed with SKIP LOCKED, so processes relaying
 * side by side never start one twice; starting is idempotent by workflow id anyway, so a process
 * that dies between starting and marking leaves a repeat start, not a lost delivery.
 */
async function relayPendingDeliveries(root: EntityManager, deps: DeliveryStartDeps): Promise<number> {
  return root.fork().transactional(async (tx) => {
    const connection = tx.getConnection();
    const trx = tx.getTransactionContext();
    type Row = {
      id: string;
      round: number;
      client_id: string;
      env: Environment;
      traceparent: string | null;
      campaign_id: string | null;
    };
    const rows = await connection.execute<Row[]>(
      `SELECT id, round, client_id, env, traceparent, campaign_id FROM webhook_deliveries
        WHERE dispatched_at IS NULL AND status = 'pending'
        ORDER BY position NULLS FIRST, created_at LIMIT ? FOR UPDATE SKIP LOCKED`,
      [RELAY_BATCH],
      'all',
      trx,
    );
    for (const row of rows) {
      // The delivery's flow continues the trace of the change that recorded its event.
      const delivery = {
        id: row.id,
        round: row.round,
        tenant: { clientId: row.client_id, env: row.env },
        campaign: row.campaign_id !== null,
      };
      await inTraceOf(row.traceparent ?? undefined, () => startDelivery(deps, delivery));
    }
    if (rows.length > 0)
      await connection.execute(
        'UPDATE webhook_deliveries SET dispatched_at = now() WHERE id IN (?)',
        [rows.map((r) => r.id)],
        'run',
        trx,
      );
    return rows.length;
  });
}

/** Runs `relayPendingDeliveries` every OUTBOX_RELAY_INTERVAL_MS until stopped, one pass at a time. */
export function startOutboxRelay(root: EntityManager, deps: DeliveryStartDeps, log: Logger): PeriodicPass {
  return startPeriodicPass({
    intervalMs: OUTBOX_RELAY_INTERVAL_MS,
    atStart: true,
    log,
    failure: 'outbox relay pass failed; retrying',
    async pass(stopped) {
      while (!stopped() && (await relayPendingDeliveries(root, deps)) === RELAY_BATCH);
    },
  });
}
