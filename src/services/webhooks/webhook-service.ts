import { WebhookDelivery, type WebhookEndpoint } from '../../db/entities';
import type { RequestContext } from '../context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { assertDateIdCursor } from '../cursors';
import { findOwnedOrThrow } from '../tenancy/owned';
import { isUuid } from '../../domain/ids';
import {
  enableWebhook,
  eventTypesOf,
  findWebhook,
  rotateWebhookSecret,
  setWebhook,
  setWebhookEventTypes,
  type IssuedWebhook,
} from './webhook-endpoints';
import { sendTestEvent } from './test-event';
import { listEvents, type EventPage, type EventQuery } from './event-log';
import { reopenDelivery } from './webhook-delivery';
import { startDelivery, type DeliveryStartDeps } from './start-delivery';
import { isEndpointDelivery } from './webhook-health';

/** A page of recent deliveries: at most this many. */
const MAX_DELIVERY_PAGE = 100;

export interface WebhookServiceDeps extends DeliveryStartDeps {
  /** Seals signing secrets at rest (see webhook-secret.ts). */
  pepper: string;
}

/** A client's own webhook settings and deliveries, for GraphQL (the CLI calls the same functions as operator). */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  /** `receivedAt`: when the call arrived (first calls that race all answer the secret, see setWebhook). */
  set(ctx: RequestContext, url: string, receivedAt: Date): Promise<IssuedWebhook> {
    return setWebhook(ctx.em, this.deps.pepper, ctx.tenant, url, receivedAt);
  }

  /** The old secret keeps signing beside the new one for WEBHOOK_SECRET_OVERLAP. */
  rotateSecret(ctx: RequestContext): Promise<IssuedWebhook & { previousSecretExpiresAt: Date | null }> {
    return rotateWebhookSecret(ctx.em, this.deps.pepper, ctx.tenant, this.deps.config.durations.webhookSecretOverlapMs);
  }

  /**
   * Sends events again to an endpoint that was disabled for failing; what it missed stays on
   * `GET /v2/events`, and with `redeliver` is sent again too.
   */
  enable(ctx: RequestContext, redeliver = false): Promise<WebhookEndpoint> {
    return enableWebhook(ctx.em, ctx.tenant, redeliver);
  }

  show(ctx: RequestContext): Promise<WebhookEndpoint | null> {
    return findWebhook(ctx.em, ctx.tenant);
  }

  /** The event types the endpoint receives (every type unless it chose some). */
  async eventTypes(ctx: RequestContext): Promise<string[]> {
    const endpoint = await findWebhook(ctx.em, ctx.tenant);
    if (!endpoint) throw new NotFoundError('webhook of environment', ctx.tenant.env, 'env');
    return eventTypesOf(endpoint);
  }

  async setEventTypes(ctx: RequestContext, types: string[] | null): Promise<string[]> {
    return eventTypesOf(await setWebhookEventTypes(ctx.em, ctx.tenant, types));
  }

  sendTest(ctx: RequestContext): Promise<WebhookDelivery> {
    return sendTestEvent(ctx.em, ctx.tenant, `${ctx.tenant.clientName} (request ${ctx.requestId})`);
  }

  /** Recent events, oldest first after `after` (GraphQL `events`, REST `GET /v2/events`). */
  events(ctx: RequestContext, query: EventQuery): Promise<EventPage> {
    return listEvents(ctx.em, query);
  }

  async delivery(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    if (!isUuid(deliveryId)) throw new NotFoundError('webhook delivery', deliveryId, 'deliveryId');
    return findOwnedOrThrow(ctx, WebhookDelivery, deliveryId, {
      what: 'webhook delivery',
      path: 'deliveryId',
      populate: ['attempts'],
    });
  }

  /**
   * This client's deliveries in this environment, newest first, each with its attempts (the dashboard's
   * Webhooks tab): to the webhook, to projects' callbacks, of campaigns. Keyset-paged like every list.
   */
  recentDeliveries(ctx: RequestContext, options: { first: number; after?: string }) {
    if (!Number.isInteger(options.first) || options.first < 1 || options.first > MAX_DELIVERY_PAGE) {
      throw ValidationError.field('first', `must be from 1 to ${MAX_DELIVERY_PAGE}`);
    }
    if (options.after !== undefined) assertDateIdCursor(options.after, 'after', isUuid);
    return ctx.em.findByCursor(
      WebhookDelivery,
      {},
      {
        first: options.first,
        after: options.after,
        orderBy: { createdAt: 'desc', id: 'desc' },
        populate: ['attempts'],
        includeCount: false,
      },
    );
  }

  /** Sends a failed delivery again: the same event and `webhook-id`, new attempts. */
  async replay(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.delivery(ctx, deliveryId);
    if (delivery.status !== 'failed') {
      throw new ConflictError(
        'DELIVERY_NOT_FAILED',
        `webhook delivery ${deliveryId} is ${delivery.status}; only a failed delivery can be replayed`,
      );
    }
    if (isEndpointDelivery(delivery) && (await findWebhook(ctx.em, ctx.tenant))?.disabledAt)
      throw new ConflictError(
        'WEBHOOK_DISABLED',
        'the webhook endpoint is disabled for failing; enable it first (enableWebhook or npm run cli -- webhook enable)',
      );
    await reopenDelivery(ctx.em, delivery);
    await startDelivery(this.deps, {
      id: delivery.id,
      round: delivery.round,
      tenant: ctx.tenant,
      campaign: delivery.campaign != null,
    });
    return delivery;
  }
}
