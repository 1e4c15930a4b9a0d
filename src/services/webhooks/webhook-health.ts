import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookEndpoint, type WebhookDelivery } from '../../db/entities';
import type { WebhookTarget } from './webhook-endpoints';
import { recordEvent } from './webhook-events';

/**
 * An endpoint that fails for days is disabled, as Svix and Stripe do (https://docs.svix.com/retries,
 * "Disabling failing endpoints"): once its event deliveries have failed for WEBHOOK_DISABLE_AFTER
 * without one succeeding, nothing more is sent to it, an `endpoint.disabled` event goes on the
 * catch-up feed and the dashboard shows it, until the shop enables it again (enableWebhook).
 * Only the events sent to the shop's endpoint count; a campaign's webhook and a project's callback
 * are not the endpoint's health.
 */

/** Deliveries of events recorded for the tenant's endpoint (webhook-events.ts `recordEvent`). */
export function isEndpointDelivery(delivery: Pick<WebhookDelivery, 'eventKey'>): boolean {
  return delivery.eventKey.startsWith('event:');
}

export interface EndpointOutcome {
  attemptedAt: Date;
  /** Null when the attempt was answered 2xx. */
  error: string | null;
  disableAfterMs: number;
}

/**
 * Records one attempt's outcome on the tenant's endpoint: a success clears its failing streak, a
 * failure starts one or, once the streak is `disableAfterMs` old, disables the endpoint and records
 * `endpoint.disabled`, in one transaction. Answers whether this attempt disabled it.
 */
export async function recordEndpointOutcome(
  em: EntityManager,
  tenant: WebhookTarget,
  outcome: EndpointOutcome,
): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const endpoint = await tx.findOne(
      WebhookEndpoint,
      { client: tenant.clientId, env: tenant.env },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!endpoint || endpoint.disabledAt) return false;
    if (outcome.error === null) {
      if (endpoint.failingSince) tx.assign(endpoint, { failingSince: null });
      return false;
    }
    const failingSince = endpoint.failingSince ?? outcome.attemptedAt;
    if (outcome.attemptedAt.getTime() - failingSince.getTime() < outcome.disableAfterMs) {
      if (!endpoint.failingSince) tx.assign(endpoint, { failingSince });
      return false;
    }
    const disabledAt = new Date();
    const disabledReason =
      `every event delivery failed since ${failingSince.toISOString()}; last: ${outcome.error}`.slice(0, 500);
    tx.assign(endpoint, { failingSince, disabledAt, disabledReason, updatedAt: disabledAt });
    // On the catch-up feed only: recordEvent sends nothing to a disabled endpoint.
    await recordEvent(tx, tenant, {
      type: 'endpoint.disabled',
      data: {
        url: endpoint.url,
        failingSince: failingSince.toISOString(),
        disabledAt: disabledAt.toISOString(),
        reason: disabledReason,
      },
    });
    return true;
  });
}
