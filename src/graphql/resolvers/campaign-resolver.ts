import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { IdempotencyKeyArg } from '../idempotency-key';
import type { GraphqlContext } from '../context';
import type { Campaign as CampaignEntity } from '../../services/campaigns/campaign-service';
import { webhookDeliveryViewOf } from '../../services/webhooks/delivery-view';
import {
  Campaign,
  CampaignConnection,
  CampaignCounts,
  CampaignRowConnection,
  CampaignRowStateEnum,
  StartCampaignPayload,
  WebhookDeliveryConnection,
} from '../types/campaign';

/** Campaign state for the client's dashboards; the REST twin of startCampaign is /v2/campaign/auto-generate. */
@Resolver(() => Campaign)
export class CampaignResolver {
  @Mutation(() => StartCampaignPayload, {
    description: 'Generate one project per row of a CSV (REST: /v2/campaign/auto-generate)',
  })
  async startCampaign(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('csvUrl', () => String) csvUrl: string,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<StartCampaignPayload> {
    const { message, campaign } = await services.campaigns.start(ctx, { csvUrl });
    return { message, campaign };
  }

  @Query(() => Campaign, { description: 'One campaign of this client and environment' })
  campaign(@Ctx() { ctx, services }: GraphqlContext, @Arg('id', () => String) id: string): Promise<CampaignEntity> {
    return services.campaigns.find(ctx, id);
  }

  @Query(() => CampaignConnection, { description: 'Campaigns, newest first' })
  async campaigns(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('first', () => Int, { defaultValue: 10 }) first = 10,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<CampaignConnection> {
    const page = await services.campaigns.page(ctx, { first, after: after ?? undefined });
    return {
      edges: page.items.map((node) => ({ node, cursor: page.from(node) })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    };
  }

  @FieldResolver(() => CampaignCounts)
  counts(@Root() campaign: CampaignEntity, @Ctx() { ctx, services }: GraphqlContext): Promise<CampaignCounts> {
    return services.campaigns.counts(ctx.em, campaign);
  }

  @FieldResolver(() => CampaignRowConnection, {
    description: 'Rows in file order, each with its line, reference, project, state and reason',
  })
  async rows(
    @Root() campaign: CampaignEntity,
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('first', () => Int, { defaultValue: 100 }) first = 100,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
    @Arg('state', () => CampaignRowStateEnum, { nullable: true }) state?: string | null,
  ): Promise<CampaignRowConnection> {
    const page = await services.campaigns.rows(ctx, campaign, {
      first,
      after: after ?? undefined,
      state: state ?? undefined,
    });
    return {
      edges: page.items.map((row) => ({
        cursor: page.from(row),
        node: {
          line: row.line,
          reference: row.reference,
          projectId: row.projectId,
          state: row.state,
          reason: row.reason,
        },
      })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    };
  }

  @FieldResolver(() => WebhookDeliveryConnection, {
    description: 'Webhook deliveries of this campaign, oldest first, with their attempts',
  })
  async deliveries(
    @Root() campaign: CampaignEntity,
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('first', () => Int, { defaultValue: 100 }) first = 100,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<WebhookDeliveryConnection> {
    const page = await services.campaigns.deliveries(ctx, campaign, { first, after: after ?? undefined });
    return {
      edges: page.items.map((delivery) => ({ cursor: page.from(delivery), node: webhookDeliveryViewOf(delivery) })),
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    };
  }
}
