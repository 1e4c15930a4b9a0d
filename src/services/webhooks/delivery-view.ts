import type { WebhookDelivery } from '../../db/entities';
import type { WebhookDeliveryStatus } from '../../domain/webhook-delivery-status';
import { messageIdOf } from './webhook-delivery';

/** A webhook delivery as the client's dashboards read it: where it went, its state and every attempt. */
export interface WebhookDeliveryView {
  id: string;
  /** The `webhook-id` the receiver saw (the same on every attempt). */
  webhookId: string;
  event: string;
  url: string;
  reference: string;
  projectId: string;
  status: WebhookDeliveryStatus;
  attempts: { attemptedAt: Date; statusCode?: number | null; latencyMs: number; error?: string | null }[];
  createdAt: Date;
  updatedAt: Date;
}

export function webhookDeliveryViewOf(delivery: WebhookDelivery): WebhookDeliveryView {
  return {
    id: delivery.id,
    webhookId: messageIdOf(delivery),
    event: delivery.event,
    url: delivery.url,
    reference: delivery.reference,
    projectId: delivery.projectId,
    status: delivery.status,
    attempts: delivery.attempts
      .getItems()
      .map(({ attemptedAt, statusCode, latencyMs, error }) => ({ attemptedAt, statusCode, latencyMs, error })),
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}
