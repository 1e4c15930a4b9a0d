import type { Config } from '../../config';
import type { FlowTenant, WorkflowEngine } from '../../domain/flows';
import { WEBHOOK_DELIVERY_FLOW, webhookWorkflowId } from '../../domain/flows';

export interface DeliveryStartDeps {
  engine: WorkflowEngine;
  config: Pick<Config, 'durations'>;
}

/** The webhook-delivery flow's input. */
interface WebhookDeliveryInput {
  deliveryId: string;
  /** WEBHOOK_RETRY_SPACING when the round started; the backoff doubles it per retry. */
  retrySpacingMs: number;
}

/** The delivery whose round starts, and whose tenant's share of the webhook queue it takes. */
export interface DeliveryToStart {
  id: string;
  round: number;
  tenant: FlowTenant;
}

/** Starts the flow of the delivery's current round; starting a round twice is one run. */
export async function startDelivery(deps: DeliveryStartDeps, delivery: DeliveryToStart): Promise<void> {
  const input: WebhookDeliveryInput = { deliveryId: delivery.id, retrySpacingMs: deps.config.durations.webhookRetryMs };
  const { tenant } = delivery;
  await deps.engine.start(WEBHOOK_DELIVERY_FLOW, webhookWorkflowId(delivery.id, delivery.round), input, { tenant });
}
