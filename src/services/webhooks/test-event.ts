import type { EntityManager } from '@mikro-orm/postgresql';
import { EventRecord, WebhookDelivery } from '../../db/entities';
import { ConflictError, DomainError } from '../../domain/errors';
import { findWebhook, type WebhookTarget } from './webhook-endpoints';
import { recordEvent } from './webhook-events';

/** Test events a tenant may queue per minute: enough to debug a receiver, too few to flood the delivery queue. */
const TEST_EVENTS_PER_MINUTE = 10;

/**
 * Queues a `webhook.test` event to the tenant's endpoint through the ordinary path (signed,
 * retried, logged, replayable), so a shop can check its receiver before going live. The outbox
 * relay starts it within a moment. Answers the delivery.
 */
export async function sendTestEvent(
  em: EntityManager,
  target: WebhookTarget,
  requestedBy: string,
): Promise<WebhookDelivery> {
  const endpoint = await findWebhook(em, target);
  if (!endpoint)
    throw new ConflictError(
      'WEBHOOK_NOT_CONFIGURED',
      `no webhook is set for the ${target.env} environment; set one first (setWebhook or npm run cli -- webhook set)`,
    );
  if (endpoint.disabledAt)
    throw new ConflictError(
      'WEBHOOK_DISABLED',
      `the ${target.env} webhook was disabled at ${endpoint.disabledAt.toISOString()} for failing; enable it first (enableWebhook or npm run cli -- webhook enable)`,
    );
  const recent = await em.count(EventRecord, {
    type: 'webhook.test',
    occurredAt: { $gt: new Date(Date.now() - 60_000) },
  });
  if (recent >= TEST_EVENTS_PER_MINUTE) {
    throw new DomainError(
      'rate_limited',
      'RATE_LIMITED',
      `at most ${TEST_EVENTS_PER_MINUTE} test events a minute; try again in a minute`,
    );
  }
  const { eventId } = await em.transactional((tx) =>
    recordEvent(tx, target, {
      type: 'webhook.test',
      data: {
        message: 'A test event: your receiver verified its signature if you read this.',
        requestedBy,
        env: target.env,
      },
    }),
  );
  return em.fork().findOneOrFail(WebhookDelivery, { eventKey: `event:${eventId}` }, { populate: ['attempts'] });
}
