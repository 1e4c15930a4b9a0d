import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { WebhookDeliveryActivities } from '../src/activities/webhook-delivery-activities';
import { WEBHOOK_DELIVERY_FLOW } from '../src/domain/flows';
import { WEBHOOK_RETRIES, webhookRetryDelayMs } from '../src/domain/webhook-delivery-status';
import { EVENT_RETRIES, eventRetryDelayMs } from '../src/domain/webhook-retry-schedule';
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
 * happened: the delivery waits while an earlier one of the same order is pending, until that one's
 * next attempt when it is known); a 2xx answer delivers it. Anything else (a status, a timeout, a
 * refused connection) is retried: order and project events on the events' schedule, 7 retries over
 * about 27.6 hours with jitter (src/domain/webhook-retry-schedule.ts), a campaign's webhook exactly
 * WEBHOOK_RETRIES more times after spacing, 2 x spacing and 4 x spacing (WEBHOOK_RETRY_SPACING).
 * Then the delivery is failed (replayWebhook re-opens it); at once when its endpoint is disabled.
 * Every wait is a durable timer: a restart resumes the schedule where it was, and nothing is held.
 */
export const webhookDeliveryFlow: FlowDefinition<typeof WEBHOOK_DELIVERY_FLOW, Activities> = {
  contract: WEBHOOK_DELIVERY_FLOW,
  activityOptions: { attemptWebhook: attempt, finishWebhook: database },
  async run({ activities, sleep }, { deliveryId, retrySpacingMs, schedule, retryScale = 1 }) {
    const events = schedule === 'events';
    const retries = events ? EVENT_RETRIES : WEBHOOK_RETRIES;
    const delayBefore = (retry: number) =>
      events ? eventRetryDelayMs(deliveryId, retry, retryScale) : webhookRetryDelayMs(retrySpacingMs, retry);
    for (let retry = 0; retry <= retries; retry++) {
      if (retry > 0) await sleep(delayBefore(retry));
      let delivered = false;
      let stopped = false;
      // Not its turn: look again; waiting is no attempt. The turn is checked inside the attempt, not
      // as a step of its own, so the steps of a run under way stay the same across releases (DBOS and
      // Temporal replay a run by its steps).
      for (let pause = TURN_PAUSE_MS; ; pause = Math.min(pause * 2, TURN_PAUSE_MAX_MS)) {
        try {
          const result = await activities.attemptWebhook(deliveryId, retry < retries ? delayBefore(retry + 1) : null);
          if (result.waiting) {
            // Until the earlier event's next attempt when it is known (hours behind a receiver that
            // is down), then briefly again while that attempt settles (halved: the loop doubles it).
            if (result.waitMs && result.waitMs > pause) {
              await sleep(result.waitMs);
              pause = TURN_PAUSE_MS / 2;
            } else await sleep(pause);
            continue;
          }
          delivered = result.delivered;
          stopped = result.stopped === true;
        } catch {
          // The attempt's own bookkeeping failed: it counts as a failed attempt.
        }
        break;
      }
      if (delivered) {
        await activities.finishWebhook(deliveryId, 'delivered');
        return { status: 'delivered', attempts: retry + 1 };
      }
      if (stopped) {
        await activities.finishWebhook(deliveryId, 'failed');
        return { status: 'failed', attempts: retry + 1 };
      }
    }
    await activities.finishWebhook(deliveryId, 'failed');
    return { status: 'failed', attempts: retries + 1 };
  },
};
