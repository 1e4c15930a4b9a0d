import { defineFlow } from './flow-contract';

export interface WebhookDeliveryInput {
  deliveryId: string;
  /** WEBHOOK_RETRY_SPACING when the round started; a campaign webhook's backoff doubles it per retry. */
  retrySpacingMs: number;
  /**
   * `events`: order and project events, retried on the events' schedule (webhook-retry-schedule.ts).
   * Absent: a campaign's webhook, with the API's 3 retries (and every run started before the
   * schedule existed, which keeps the schedule it began with).
   */
  schedule?: 'events';
  /** WEBHOOK_RETRY_SCALE when the round started (1 in production). */
  retryScale?: number;
  /** Round 0 is a delivery's first sending; each replay of a failed delivery is a new round (a new run). */
  round?: number;
}

/** One webhook delivery's round: a signed POST, retried on its schedule. */
export const WEBHOOK_DELIVERY_FLOW = defineFlow<WebhookDeliveryInput, { status: string; attempts: number }>({
  name: 'webhookDelivery',
  workflowId: ({ deliveryId, round = 0 }) =>
    round === 0 ? `webhook:${deliveryId}` : `webhook:${deliveryId}:replay-${round}`,
});
