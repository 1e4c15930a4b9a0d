/**
 * Outbound webhook deliveries: one delivery is one event for one target, sent in attempts until a
 * 2xx answer or until the retries are spent. Its `webhook-id` stays the same across every attempt
 * and every replay, so a receiver can drop repeats.
 */

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const WEBHOOK_DELIVERY_TRANSITIONS: Record<WebhookDeliveryStatus, readonly WebhookDeliveryStatus[]> = {
  pending: ['delivered', 'failed'],
  delivered: [],
  // replayWebhook: a failed delivery is sent again, as the same event.
  failed: ['pending'],
};

export function canMoveDelivery(from: WebhookDeliveryStatus, to: WebhookDeliveryStatus): boolean {
  return WEBHOOK_DELIVERY_TRANSITIONS[from].includes(to);
}

/**
 * Attempts after the first failed one of a campaign's webhook (the API promises 3 additional
 * attempts after a failure). Order and project events follow webhook-retry-schedule.ts.
 */
export const WEBHOOK_RETRIES = 3;

/**
 * Wait before a campaign webhook's retry `n` (1-based): spacing, 2 x spacing, 4 x spacing. With the
 * default spacing of one minute it is given up 7 minutes after its first attempt.
 */
export function webhookRetryDelayMs(spacingMs: number, retry: number): number {
  return spacingMs * 2 ** (retry - 1);
}

/**
 * Every event type a client can receive (docs/api.md, Events): order-line progress and routing, order changes,
 * claims and the remakes they make, the project-ready notification, a project build that gave up, the test event a client asks for,
 * and its endpoint's disabling after failing too long. An endpoint subscribes to some of them or,
 * by default, to all; `webhook.test` goes to the endpoint whatever it chose, and `endpoint.disabled`
 * only to the catch-up feed (the endpoint it tells of is not sent anything more).
 */
export const WEBHOOK_EVENTS = [
  'order.line.status_changed',
  'order.line.shipped',
  'order.line.delivered',
  'order.line.routing',
  'order.cancelled',
  'order.updated',
  'order.claim.created',
  'order.remake.created',
  'project.ready',
  'project.build_failed',
  'webhook.test',
  'endpoint.disabled',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** The `webhook-id` header of a delivery: stable for the delivery's lifetime. */
export function webhookMessageId(deliveryId: string): string {
  return `msg_${deliveryId}`;
}
