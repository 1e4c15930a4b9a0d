import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { SafeFetch } from '../outbound/safe-fetch';
import { WebhookDeliveryRun, type DeliverySettledListener } from '../services/webhooks/delivery-run';
import type { AttemptResult } from '../services/webhooks/webhook-delivery';

export interface WebhookDeliveryActivityDeps {
  orm: MikroORM;
  fetch: SafeFetch;
  log: Logger;
  /** Opens the sealed webhook signing secrets. */
  pepper: string;
  /** What waits on a delivery's settlement (a campaign's row), told in its transaction. */
  onSettled: readonly DeliverySettledListener[];
  config: Pick<Config, 'durations'>;
}

/** The steps of every webhook delivery (workflows/webhook-delivery.ts): the webhooks area's delivery run. */
export function createWebhookDeliveryActivities(deps: WebhookDeliveryActivityDeps) {
  const run = new WebhookDeliveryRun({ ...deps, disableAfterMs: deps.config.durations.webhookDisableAfterMs });
  return {
    attemptWebhook: (deliveryId: string, retryInMs?: number | null): Promise<AttemptResult> =>
      run.attempt(deliveryId, retryInMs ?? null),
    finishWebhook: (deliveryId: string, outcome: 'delivered' | 'failed'): Promise<void> =>
      run.settle(deliveryId, outcome),
  };
}

export type WebhookDeliveryActivities = ReturnType<typeof createWebhookDeliveryActivities>;
