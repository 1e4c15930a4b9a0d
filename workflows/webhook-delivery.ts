import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { WebhookDeliveryActivities } from '../src/activities/webhook-delivery-activities';
import { WEBHOOK_DELIVERY_FLOW } from '../src/domain/flows';
import { WEBHOOK_RETRIES, webhookRetryDelayMs } from '../src/domain/webhook-delivery-status';
import { DATABASE_ACTIVITY_POLICY } from '../src/domain/retry-policies';

type Activities = WebhookDeliveryActivities;

/** Exactly one request per call: the retry schedule below is the delivery's, not the engine's. */
const attempt: ActivityOptions = {
  queue: 'webhook-attempts',
  startToCloseTimeoutMs: 30_000,
  retry: { maximumAttempts: 1, initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 1_000 },
};
const database = DATABASE_ACTIVITY_POLICY;

/** While an earlier event of the same order is still being delivered, look again after this, doubling up to the cap. */
const TURN_PAUSE_MS = 200;
const TURN_PAUSE_MAX_MS = 1_000;

/**
 * One delivery: a signed POST once its turn has come (an order's events go out in the order they
 * happened: the delivery waits while an earlier one of the same order is pending); a 2xx answer
 * delivers it. Anything else (a status, a timeout, a refused connection) is retried exactly WEBHOOK_RETRIES more times, after spacing, 2 x spacing
 * and 4 x spacing (WEBHOOK_RETRY_SPACING), then the delivery is failed (replayWebhook re-opens it).
 */
export const webhookDeliveryFlow: FlowDefinition<typeof WEBHOOK_DELIVERY_FLOW, Activities> = {
  contract: WEBHOOK_DELIVERY_FLOW,
  activityOptions: { attemptWebhook: attempt, finishWebhook: database },
  async run({ activities, sleep }, { deliveryId, retrySpacingMs }) {
    for (let retry = 0; retry <= WEBHOOK_RETRIES; retry++) {
      if (retry > 0) await sleep(webhookRetryDelayMs(retrySpacingMs, retry));
      let delivered = false;
      // Not its turn: look again; waiting is no attempt. The turn is checked inside the attempt, not
      // as a step of its own, so the steps of a run under way stay the same across releases (DBOS and
      // Temporal replay a run by its steps).
      for (let pause = TURN_PAUSE_MS; ; pause = Math.min(pause * 2, TURN_PAUSE_MAX_MS)) {
        try {
          const result = await activities.attemptWebhook(deliveryId);
          if (result.waiting) {
            await sleep(pause);
            continue;
          }
          delivered = result.delivered;
        } catch {
          // The attempt's own bookkeeping failed: it counts as a failed attempt.
        }
        break;
      }
      if (delivered) {
        await activities.finishWebhook(deliveryId, 'delivered');
        return { status: 'delivered', attempts: retry + 1 };
      }
    }
    await activities.finishWebhook(deliveryId, 'failed');
    return { status: 'failed', attempts: WEBHOOK_RETRIES + 1 };
  },
};
