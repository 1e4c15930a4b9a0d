import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../context';
import { IssuedWebhook, Webhook, WebhookDelivery, WebhookDeliveryConnection } from '../types/campaign';
import { webhookDeliveryViewOf } from '../../services/webhooks/delivery-view';
import { eventTypesOf } from '../../services/webhooks/webhook-endpoints';
import type { WebhookService } from '../../services/webhooks/webhook-service';
import { WEBHOOK_EVENTS } from '../../domain/webhook-delivery-status';

type WebhookEndpoint = Awaited<ReturnType<WebhookService['enable']>>;

/** The caller's own webhook: where campaign notifications go, and the secret that signs them. */
@Resolver()
export class WebhookResolver {
  @Query(() => Webhook, {
    nullable: true,
    description: "This client's webhook in this environment; null when none is set",
  })
  async webhook(@Ctx() { ctx, services }: GraphqlContext): Promise<Webhook | null> {
    const endpoint = await services.webhooks.show(ctx);
    return endpoint ? webhookOf(endpoint) : null;
  }

  @Mutation(() => Webhook, {
    description:
      'Send events again to the webhook after it was disabled for failing. The events it missed stay on the catch-up feed (events, GET /v2/events); with redeliver, those since its failing began that did not reach it are sent again, in order, as the same events',
  })
  async enableWebhook(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('redeliver', () => Boolean, { defaultValue: false }) redeliver: boolean,
  ): Promise<Webhook> {
    return webhookOf(await services.webhooks.enable(ctx, redeliver));
  }

  @Mutation(() => [String], {
    description: `Choose the event types the webhook receives; null for every type (the default). Types: ${WEBHOOK_EVENTS.join(', ')}`,
  })
  setWebhookEventTypes(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('types', () => [String], { nullable: true }) types?: string[] | null,
  ): Promise<string[]> {
    return services.webhooks.setEventTypes(ctx, types ?? null);
  }

  @Mutation(() => WebhookDelivery, {
    description: 'Send a webhook.test event to the webhook through the usual signed, retried, logged path',
  })
  async sendTestWebhook(@Ctx() { ctx, services }: GraphqlContext): Promise<WebhookDelivery> {
    return webhookDeliveryViewOf(await services.webhooks.sendTest(ctx));
  }

  @Mutation(() => IssuedWebhook, {
    description: 'Set the webhook URL; the first time, the whsec_ signing secret is issued and shown once',
  })
  setWebhook(
    @Ctx() { ctx, services, receivedAt }: GraphqlContext,
    @Arg('url', () => String) url: string,
  ): Promise<IssuedWebhook> {
    return services.webhooks.set(ctx, url, new Date(receivedAt));
  }

  @Mutation(() => IssuedWebhook, {
    description:
      'Replace the signing secret; the new one is shown once and signs every later attempt, the replaced one beside it until previousSecretExpiresAt (WEBHOOK_SECRET_OVERLAP, 24 h by default)',
  })
  rotateWebhookSecret(@Ctx() { ctx, services }: GraphqlContext): Promise<IssuedWebhook> {
    return services.webhooks.rotateSecret(ctx);
  }

  @Query(() => WebhookDelivery, { description: 'One webhook delivery with its attempts' })
  async webhookDelivery(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('id', () => String) id: string,
  ): Promise<WebhookDelivery> {
    return webhookDeliveryViewOf(await services.webhooks.delivery(ctx, id));
  }

  @Query(() => WebhookDeliveryConnection, {
    description: "This client's webhook deliveries in this environment, newest first, with their attempts",
  })
  async webhookDeliveries(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('first', () => Int, { defaultValue: 20, description: 'At most 100' }) first = 20,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<WebhookDeliveryConnection> {
    const page = await services.webhooks.recentDeliveries(ctx, { first, after: after ?? undefined });
    return {
      edges: page.items.map((delivery) => ({ cursor: page.from(delivery), node: webhookDeliveryViewOf(delivery) })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    };
  }

  @Mutation(() => WebhookDelivery, {
    description: 'Send a failed delivery again: same event and webhook-id, new attempts',
  })
  async replayWebhook(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('deliveryId', () => String) deliveryId: string,
  ): Promise<WebhookDelivery> {
    return webhookDeliveryViewOf(await services.webhooks.replay(ctx, deliveryId));
  }
}

/** The endpoint as GraphQL shows it: the previous secret's expiry only while it still signs. */
function webhookOf(endpoint: WebhookEndpoint): Webhook {
  const expires = endpoint.previousSecretExpiresAt;
  return {
    url: endpoint.url,
    updatedAt: endpoint.updatedAt,
    eventTypes: eventTypesOf(endpoint),
    failingSince: endpoint.failingSince ?? null,
    disabledAt: endpoint.disabledAt ?? null,
    disabledReason: endpoint.disabledReason ?? null,
    previousSecretExpiresAt: expires && expires > new Date() ? expires : null,
  };
}
