import { WebhookDelivery, type WebhookEndpoint } from '../../db/entities';
import type { RequestContext } from '../context';
import { ConflictError, NotFoundError } from '../../domain/errors';
import { findOwnedOrThrow } from '../tenancy/owned';
import { isUuid } from '../../domain/ids';
import { findWebhook, rotateWebhookSecret, setWebhook, type IssuedWebhook } from './webhook-endpoints';
import { reopenDelivery } from './webhook-delivery';
import { startDelivery, type DeliveryStartDeps } from './start-delivery';

export interface WebhookServiceDeps extends DeliveryStartDeps {
  /** Seals signing secrets at rest (see webhook-secret.ts). */
  pepper: string;
}

/** A client's own webhook settings and deliveries, for GraphQL (the CLI calls the same functions as operator). */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  set(ctx: RequestContext, url: string): Promise<IssuedWebhook> {
    return setWebhook(ctx.em, this.deps.pepper, ctx.tenant, url);
  }

  rotateSecret(ctx: RequestContext): Promise<IssuedWebhook> {
    return rotateWebhookSecret(ctx.em, this.deps.pepper, ctx.tenant);
  }

  show(ctx: RequestContext): Promise<WebhookEndpoint | null> {
    return findWebhook(ctx.em, ctx.tenant);
  }

  async delivery(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    if (!isUuid(deliveryId)) throw new NotFoundError('webhook delivery', deliveryId, 'deliveryId');
    return findOwnedOrThrow(ctx, WebhookDelivery, deliveryId, { what: 'webhook delivery', path: 'deliveryId', populate: ['attempts'] });
  }

  /** Sends a failed delivery again: the same event and `webhook-id`, new attempts. */
  async replay(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.delivery(ctx, deliveryId);
    if (delivery.status !== 'failed') {
      throw new ConflictError('DELIVERY_NOT_FAILED', `webhook delivery ${deliveryId} is ${delivery.status}; only a failed delivery can be replayed`);
    }
    await reopenDelivery(ctx.em, delivery);
    await startDelivery(this.deps, delivery);
    return delivery;
  }
}
