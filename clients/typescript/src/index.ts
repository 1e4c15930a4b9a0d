export { createPhotobookClient, type PhotobookClient, type PhotobookClientOptions } from './photobook-client';
export type { ClientCredentials, EditorCredentials, PhotobookCredentials } from './credentials';
export { PhotobookGraphQLError, type GraphQLErrorEntry } from './graphql-error';
export type { PhotobookSubscriptions } from './graphql-subscriptions';
export type { TypedDocument } from './typed-document';
export type { components, operations, paths } from './generated/rest';
export * from './generated/graphql/graphql';
