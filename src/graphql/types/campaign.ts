import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { CAMPAIGN_ROW_STATES, CAMPAIGN_STATUSES } from '../../domain/campaign-status';
import { WEBHOOK_DELIVERY_STATUSES } from '../../domain/webhook-delivery-status';
import { PageInfo } from './project';

/** GraphQL enums from the domain's lists: a state added there appears here. */
const enumOf = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

const CampaignStatusEnum = enumOf(CAMPAIGN_STATUSES);
registerEnumType(CampaignStatusEnum, {
  name: 'CampaignStatus',
  description: 'importing -> generating -> notifying -> completed, or importing -> failed',
});
export const CampaignRowStateEnum = enumOf(CAMPAIGN_ROW_STATES);
registerEnumType(CampaignRowStateEnum, { name: 'CampaignRowState', description: 'What became of one CSV row' });
const WebhookDeliveryStatusEnum = enumOf(WEBHOOK_DELIVERY_STATUSES);
registerEnumType(WebhookDeliveryStatusEnum, { name: 'WebhookDeliveryStatus' });

@ObjectType({ description: 'How far a campaign got' })
export class CampaignCounts {
  @Field(() => Int, { description: 'Data rows in the file (the header not counted)' }) rows!: number;
  @Field(() => Int, { description: 'Rows whose project exists' }) generated!: number;
  @Field(() => Int, { description: "Rows whose project was announced to the shop's webhook" }) notified!: number;
  @Field(() => Int, { description: 'Rows refused (invalid) plus rows whose project or delivery failed' })
  failed!: number;
  @Field(() => Int, { description: 'Rows refused, each with its line and reason' }) invalid!: number;
  @Field(() => Int, { description: 'Rows whose reference already had a project (not generated or notified again)' })
  duplicate!: number;
}

@ObjectType({ description: 'One row of the CSV and what became of it' })
export class CampaignRow {
  @Field(() => Int, { description: 'Line of the row in the file; the header is line 1' }) line!: number;
  @Field(() => String, { nullable: true }) reference?: string | null;
  @Field(() => String, { nullable: true }) projectId?: string | null;
  @Field(() => CampaignRowStateEnum) state!: string;
  @Field(() => String, { nullable: true, description: 'Why the row is invalid, duplicate or failed' }) reason?:
    | string
    | null;
}

@ObjectType()
export class CampaignRowEdge {
  @Field(() => String) cursor!: string;
  @Field(() => CampaignRow) node!: CampaignRow;
}

@ObjectType()
export class CampaignRowConnection {
  @Field(() => [CampaignRowEdge]) edges!: CampaignRowEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType({ description: 'One HTTP request of a webhook delivery' })
export class WebhookAttempt {
  @Field(() => GraphQLDateTimeISO) attemptedAt!: Date;
  @Field(() => Int, { nullable: true, description: "The receiver's HTTP status; null when none came" }) statusCode?:
    | number
    | null;
  @Field(() => Int) latencyMs!: number;
  @Field(() => String, { nullable: true }) error?: string | null;
}

@ObjectType({ description: 'One event sent to one URL, signed (Standard Webhooks), with every attempt' })
export class WebhookDelivery {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The webhook-id header: the same for every attempt and replay' })
  webhookId!: string;
  @Field(() => String) event!: string;
  @Field(() => String) url!: string;
  @Field(() => String) reference!: string;
  @Field(() => String) projectId!: string;
  @Field(() => WebhookDeliveryStatusEnum) status!: string;
  @Field(() => [WebhookAttempt]) attempts!: WebhookAttempt[];
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO) updatedAt!: Date;
}

@ObjectType()
export class WebhookDeliveryEdge {
  @Field(() => String) cursor!: string;
  @Field(() => WebhookDelivery) node!: WebhookDelivery;
}

@ObjectType()
export class WebhookDeliveryConnection {
  @Field(() => [WebhookDeliveryEdge]) edges!: WebhookDeliveryEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType({ description: 'A CSV import: one project per good row, each announced to the webhook' })
export class Campaign {
  @Field(() => ID) id!: string;
  @Field(() => String) csvUrl!: string;
  @Field(() => CampaignStatusEnum) status!: string;
  @Field(() => String, { nullable: true, description: 'Why the campaign failed (its file, never a row)' }) reason?:
    | string
    | null;
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO) updatedAt!: Date;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) finishedAt?: Date | null;
}

@ObjectType()
export class CampaignEdge {
  @Field(() => String) cursor!: string;
  @Field(() => Campaign) node!: Campaign;
}

@ObjectType()
export class CampaignConnection {
  @Field(() => [CampaignEdge]) edges!: CampaignEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType()
export class StartCampaignPayload {
  @Field(() => String, { description: 'As REST answers: names the URL and the campaign id' }) message!: string;
  @Field(() => Campaign) campaign!: Campaign;
}

@ObjectType({ description: "A campaign's status and counts, as they change" })
export class CampaignProgress {
  @Field(() => ID) campaignId!: string;
  @Field(() => CampaignStatusEnum) status!: string;
  @Field(() => String, { nullable: true }) reason?: string | null;
  @Field(() => CampaignCounts) counts!: CampaignCounts;
  @Field(() => Int, { description: 'Grows with every report of this campaign' }) sequence!: number;
  @Field(() => GraphQLDateTimeISO) occurredAt!: Date;
}

@ObjectType({ description: "Where this client's campaign notifications go in this environment" })
export class Webhook {
  @Field(() => String) url!: string;
  @Field(() => [String], { description: 'The event types sent to it (every type unless it chose some)' })
  eventTypes!: string[];
  @Field(() => GraphQLDateTimeISO) updatedAt!: Date;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description:
      'Since when every event delivery to it has failed (the first failed attempt since the last success); null while healthy',
  })
  failingSince?: Date | null;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description:
      'When it was disabled for failing for WEBHOOK_DISABLE_AFTER (5 days by default): nothing is sent to it until enableWebhook; null while enabled',
  })
  disabledAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'Why it was disabled (the failing streak and its last error)' })
  disabledReason?: string | null;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description:
      'Until when the secret replaced by the last rotation still signs, beside the current one; null when none does',
  })
  previousSecretExpiresAt?: Date | null;
}

@ObjectType()
export class IssuedWebhook {
  @Field(() => String) url!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The whsec_ signing secret: shown only when issued (first set, or rotation)',
  })
  secret?: string | null;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description:
      'After a rotation: until when the replaced secret still signs beside the new one (WEBHOOK_SECRET_OVERLAP)',
  })
  previousSecretExpiresAt?: Date | null;
}
