import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { Webhook } from 'standardwebhooks';
import { WebhookAttempt, WebhookDelivery } from '../../db/entities';
import type { SafeFetch } from '../../outbound/safe-fetch';
import { OutboundError } from '../../outbound/safe-fetch';
import { canMoveDelivery, webhookMessageId, type WebhookDeliveryStatus } from '../../domain/webhook-delivery-status';
import { findWebhook, signingSecretsOf } from './webhook-endpoints';
import { recordWebhookOutcome } from '../../metrics/work-metrics';
import { isEndpointDelivery, recordEndpointOutcome } from './webhook-health';

/** A receiver has this long to answer one attempt. */
const WEBHOOK_TIMEOUT_MS = 10_000;
/** What we read of an answer: receivers are asked for a status, not a body. */
const WEBHOOK_MAX_ANSWER_BYTES = 64 * 1024;

export interface AttemptResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  /** Not attempted: an earlier event of the same order is still pending (see `deliveryTurn`). */
  waiting?: boolean;
  /** While waiting: how long until that earlier event is attempted again, when it is known. */
  waitMs?: number | null;
  /** Not to be attempted again: its endpoint is disabled (webhook-health.ts). */
  stopped?: boolean;
}

export interface AttemptOptions {
  /** How long the flow waits before the next attempt should this one fail; null when none follows. */
  retryInMs: number | null;
  /** WEBHOOK_DISABLE_AFTER: how long an endpoint's event deliveries may fail before it is disabled. */
  disableAfterMs: number;
}

/**
 * Sends one attempt of a pending delivery whose turn it is, signed under the Standard Webhooks
 * scheme with the client's current secret and, during a rotation's overlap, the replaced one too
 * (the header then lists both signatures, space-separated, as the standard allows), and records it
 * (time, status code, latency, error, when the next attempt follows). An event delivery to the
 * endpoint of a disabled webhook is not sent. Never throws for what the receiver did: the flow
 * decides about retries from the result.
 */
export async function attemptDelivery(
  em: EntityManager,
  fetch: SafeFetch,
  pepper: string,
  deliveryId: string,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const delivery = await em.findOne(WebhookDelivery, { id: deliveryId });
  if (delivery?.status !== 'pending') {
    return {
      delivered: delivery?.status === 'delivered',
      statusCode: null,
      error: delivery ? `delivery is ${delivery.status}` : 'no such delivery',
    };
  }
  const tenant = { clientId: delivery.client.id, env: delivery.env };
  const endpoint = isEndpointDelivery(delivery) ? await findWebhook(em, tenant) : null;
  if (endpoint?.disabledAt)
    return {
      delivered: false,
      statusCode: null,
      error: `not sent: the webhook endpoint was disabled at ${endpoint.disabledAt.toISOString()}`,
      stopped: true,
    };
  if (delivery.orderingKey) {
    const turn = await deliveryTurn(em, deliveryId);
    if (!turn.ready) return { delivered: false, statusCode: null, error: null, waiting: true, waitMs: turn.waitMs };
  }
  const attemptedAt = new Date();
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  const secrets = await signingSecretsOf(em, pepper, tenant, attemptedAt);
  if (secrets.length === 0) {
    error = `no webhook signing secret is set for the ${delivery.env} environment of this client (npm run cli -- webhook set)`;
  } else {
    const msgId = messageIdOf(delivery);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': msgId,
          'webhook-timestamp': String(Math.floor(attemptedAt.getTime() / 1000)),
          'webhook-signature': secrets
            .map((secret) => new Webhook(secret).sign(msgId, attemptedAt, delivery.payload))
            .join(' '),
        },
        body: delivery.payload,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        maxBytes: WEBHOOK_MAX_ANSWER_BYTES,
        okStatuses: () => true,
      });
      statusCode = response.status;
      if (statusCode < 200 || statusCode > 299) error = `HTTP ${statusCode}`;
    } catch (failure) {
      if (!(failure instanceof OutboundError)) throw failure;
      statusCode = failure.status ?? null;
      error = `${failure.code}: ${failure.message}`;
    }
  }
  const latencyMs = Math.round(performance.now() - started);
  em.create(WebhookAttempt, { delivery, attemptedAt, statusCode, latencyMs, error });
  const nextAttemptAt = error !== null && options.retryInMs !== null ? new Date(Date.now() + options.retryInMs) : null;
  em.assign(delivery, { nextAttemptAt });
  await em.flush();
  recordWebhookOutcome(error === null ? 'delivered' : 'failed_attempt');
  const disabled =
    endpoint && endpoint.url === delivery.url
      ? await recordEndpointOutcome(em, tenant, { attemptedAt, error, disableAfterMs: options.disableAfterMs })
      : false;
  return { delivered: error === null, statusCode, error, ...(disabled ? { stopped: true } : {}) };
}

/** The `webhook-id` of a delivery: its event's id (`evt_…`) when it sends an event, else derived from the delivery. */
export function messageIdOf(delivery: Pick<WebhookDelivery, 'id' | 'eventId'>): string {
  return delivery.eventId ?? webhookMessageId(delivery.id);
}

/**
 * Whether a delivery may be attempted now: no earlier delivery with its ordering key (an order's
 * earlier events to the same tenant) is still pending. A delivery given up (`failed`) lets the
 * next one go; its replay then goes out of order, as replays do. When it must wait, `waitMs` says
 * until the earliest next attempt of those earlier ones (none can settle before), so a delivery
 * behind a receiver that is down for hours looks again in hours, not every second.
 */
async function deliveryTurn(em: EntityManager, deliveryId: string): Promise<{ ready: boolean; waitMs: number | null }> {
  const [row] = await em.getConnection().execute<{ blocking: number; wait_ms: number | string | null }[]>(
    `SELECT count(e.id)::int AS blocking,
            extract(epoch FROM min(e.next_attempt_at) - now())::float8 * 1000 AS wait_ms
       FROM webhook_deliveries d
       JOIN webhook_deliveries e
         ON e.client_id = d.client_id AND e.env = d.env AND e.ordering_key = d.ordering_key
        AND e.position < d.position AND e.status = 'pending'
      WHERE d.id = ?`,
    [deliveryId],
  );
  if (!row || row.blocking === 0) return { ready: true, waitMs: null };
  return { ready: false, waitMs: row.wait_ms === null ? null : Math.max(0, Math.round(Number(row.wait_ms))) };
}

/** pending -> delivered | failed; a delivery already final keeps its status. Returns the delivery. */
export async function finishDelivery(
  em: EntityManager,
  deliveryId: string,
  outcome: 'delivered' | 'failed',
): Promise<WebhookDelivery | null> {
  let gaveUp = false;
  const delivery = await em.transactional(async (tx) => {
    const locked = await tx.findOne(WebhookDelivery, { id: deliveryId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!locked) return null;
    if (canMoveDelivery(locked.status, outcome)) {
      tx.assign(locked, { status: outcome, nextAttemptAt: null, updatedAt: new Date() });
      gaveUp = outcome === 'failed';
    }
    return locked;
  });
  // Counted once the move has committed: settling a settled delivery again moves nothing.
  if (gaveUp) recordWebhookOutcome('gave_up');
  return delivery;
}

/** A failed delivery goes out again as the same event (same `webhook-id`), in a new round. */
export async function reopenDelivery(em: EntityManager, delivery: WebhookDelivery): Promise<WebhookDelivery> {
  const to: WebhookDeliveryStatus = 'pending';
  await em.transactional(async (tx) => {
    const locked = await tx.findOneOrFail(
      WebhookDelivery,
      { id: delivery.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!canMoveDelivery(locked.status, to)) return;
    tx.assign(locked, { status: to, round: locked.round + 1, updatedAt: new Date() });
  });
  await em.refresh(delivery);
  return delivery;
}
