import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { CatalogueResolver } from './resolvers/catalogue-resolver';
import { MarketResolver } from './resolvers/market-resolver';
import { StatusEventResolver } from './resolvers/status-event-resolver';
import { ProjectResolver } from './resolvers/project-resolver';
import { ProjectStatusResolver } from './resolvers/project-status-resolver';
import { OrderResolver } from './resolvers/order-resolver';
import { OrderStatusResolver } from './resolvers/order-status-resolver';
import { QuoteResolver } from './resolvers/quote-resolver';
import { CampaignResolver } from './resolvers/campaign-resolver';
import { CampaignProgressResolver } from './resolvers/campaign-progress-resolver';
import { WebhookResolver } from './resolvers/webhook-resolver';
import { EditorResolver, PhotoResolver, PhotoSlotResolver } from './resolvers/editor-resolver';
import { BookRevisionResolver } from './resolvers/book-revision-resolver';
import { ProductionResolver } from './resolvers/production-resolver';
import { PrintRoutingResolver } from './resolvers/print-routing-resolver';
import { PartnerResolver } from './resolvers/partner-resolver';
import { scopeRootFieldsToEditorSessions } from './editor-scope';

/**
 * type-graphql insists on a PubSub even though every subscription here brings its own `subscribe`
 * fed by the Postgres status-event bus; topic-based subscriptions would bypass tenancy filters.
 */
const topicsUnsupported: PubSub = {
  publish() {
    throw new Error('publish status changes with recordStatusChange, not a topic');
  },
  subscribe() {
    throw new Error('subscriptions must declare their own subscribe function');
  },
};

let schema: Promise<GraphQLSchema> | undefined;

/** The schema is built once per process from the resolver classes. */
export function graphqlSchema(): Promise<GraphQLSchema> {
  schema ??= buildSchema({
    resolvers: [
      CatalogueResolver,
      MarketResolver,
      StatusEventResolver,
      ProjectResolver,
      ProjectStatusResolver,
      OrderResolver,
      OrderStatusResolver,
      PrintRoutingResolver,
      QuoteResolver,
      CampaignResolver,
      CampaignProgressResolver,
      WebhookResolver,
      EditorResolver,
      PhotoResolver,
      PhotoSlotResolver,
      BookRevisionResolver,
      ProductionResolver,
      PartnerResolver,
    ],
    validate: false,
    pubSub: topicsUnsupported,
  }).then(scopeRootFieldsToEditorSessions);
  return schema;
}

/** The SDL committed as schema/schema.graphql; sorted so diffs show real changes only. */
export async function printedSchema(): Promise<string> {
  return `${printSchema(lexicographicSortSchema(await graphqlSchema()))}\n`;
}
