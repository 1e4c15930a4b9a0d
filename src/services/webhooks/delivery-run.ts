import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { WebhookDelivery } from '../../db/entities';
import { WEBHOOK_DELIVERY_FLOW } from '../../domain/flows';
import type { SafeFetch } from '../../outbound/safe-fetch';
import { recordFlowFailure } from '../../metrics/work-metrics';
import { emForDelivery } from '../tenancy/row-tenant-scope';
import { attemptDelivery, finishDelivery, type AttemptResult } from './webhook-delivery';

/**
 * Told of a delivery that has just settled (delivered or failed), inside the transaction that
 * settled it: whatever waited on the delivery (a campaign's row) follows in the same commit, so
 * nobody reads the delivery settled while what it announced still waits, and no crash comes between.
 */
export type DeliverySettledListener = (tx: EntityManager, delivery: WebhookDelivery) => Promise<void>;

export interface WebhookDeliveryRunDeps {
  orm: MikroORM;
  fetch: SafeFetch;
  log: Logger;
  /** Opens the sealed webhook signing secrets. */
  pepper: string;
  /** The areas that wait on deliveries, registered where the process is composed. */
  onSettled: readonly DeliverySettledListener[];
  /** WEBHOOK_DISABLE_AFTER (webhook-health.ts). */
  disableAfterMs: number;
}

/**
 * The webhook-delivery flow's work on one delivery: its attempts, then its settlement. Each finds
 * the delivery's tenant (row-tenant-scope.ts); a delivery that is gone is a no-op.
 */
export class WebhookDeliveryRun {
  constructor(private readonly deps: WebhookDeliveryRunDeps) {}

  /** `retryInMs`: the wait before the next attempt should this one fail (null: none follows). */
  async attempt(deliveryId: string, retryInMs: number | null = null): Promise<AttemptResult> {
    const { orm, fetch, pepper, log, disableAfterMs } = this.deps;
    const em = await emForDelivery(orm, deliveryId);
    if (!em) return { delivered: false, statusCode: null, error: 'no such delivery' };
    const result = await attemptDelivery(em, fetch, pepper, deliveryId, { retryInMs, disableAfterMs });
    if (!result.delivered && !result.waiting)
      log.info({ deliveryId, statusCode: result.statusCode, error: result.error }, 'webhook attempt failed');
    return result;
  }

  /** pending -> delivered | failed, and every listener told in the same transaction. */
  async settle(deliveryId: string, outcome: 'delivered' | 'failed'): Promise<void> {
    const em = await emForDelivery(this.deps.orm, deliveryId);
    const delivery = em
      ? await em.fork().transactional(async (tx) => {
          const settled = await finishDelivery(tx, deliveryId, outcome);
          if (settled && settled.status !== 'pending')
            for (const listener of this.deps.onSettled) await listener(tx, settled);
          return settled;
        })
      : null;
    if (outcome === 'failed' && delivery?.status === 'failed') recordFlowFailure(WEBHOOK_DELIVERY_FLOW.name, 'gave_up');
    this.deps.log.info({ deliveryId, status: delivery?.status }, 'webhook delivery settled');
  }
}
