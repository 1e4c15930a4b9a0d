import type { Config } from '../../config';
import { WEBHOOK_DELIVERY_FLOW, type FlowTenant, type WorkflowEngine } from '../../domain/flows';

export interface DeliveryStartDeps {
  engine: WorkflowEngine;
  config: Pick<Config, 'durations' | 'webhookRetryScale'>;
}

/** The delivery whose round starts, and whose tenant's share of the webhook queue it takes. */
export interface DeliveryToStart {
  id: string;
  round: number;
  tenant: FlowTenant;
  /** A campaign's webhook keeps the API's 3 retries; every other delivery follows the events' schedule. */
  campaign: boolean;
}

/** Starts the flow of the delivery's current round; starting a round twice is one run. */
export async function startDelivery(deps: DeliveryStartDeps, delivery: DeliveryToStart): Promise<void> {
  const input = {
    deliveryId: delivery.id,
    retrySpacingMs: deps.config.durations.webhookRetryMs,
    round: delivery.round,
    ...(delivery.campaign ? {} : { schedule: 'events' as const, retryScale: deps.config.webhookRetryScale }),
  };
  await deps.engine.start(WEBHOOK_DELIVERY_FLOW, input, { tenant: delivery.tenant });
}
