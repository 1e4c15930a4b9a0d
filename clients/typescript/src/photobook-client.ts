import createFetchClient, { type Client } from 'openapi-fetch';
import { connectionInitPayload, credentialHeaders, type PhotobookCredentials } from './credentials';
import type { paths } from './generated/rest';
import { graphqlOverHttp, type GraphQLRequest } from './graphql-over-http';
import { graphqlSubscriptions, type PhotobookSubscriptions } from './graphql-subscriptions';

export interface PhotobookClientOptions {
  /** Where the service answers, e.g. `https://photobook.example.com` (its PUBLIC_URL). */
  baseUrl: string;
  credentials: PhotobookCredentials;
  /** A fetch of your own (proxies, retries); the global fetch otherwise. */
  fetch?: typeof fetch;
  /** For graphql-ws where the runtime has no global WebSocket. */
  webSocketImpl?: unknown;
}

export interface PhotobookClient {
  /** The REST API (`/v2/…`, `/api/v2/…`), typed by the OpenAPI document: `rest.POST('/v2/quote', { body })`. */
  rest: Client<paths>;
  /** A query or mutation of the generated documents: `graphql(OrdersDocument, { first: 20 })`. */
  graphql: GraphQLRequest;
  /** Subscriptions over graphql-ws; `close()` them when done. */
  subscriptions(): PhotobookSubscriptions;
}

/** The service's typed client: REST and GraphQL, each request carrying the credentials. */
export function createPhotobookClient(options: PhotobookClientOptions): PhotobookClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers = credentialHeaders(options.credentials);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    rest: createFetchClient<paths>({ baseUrl, headers, fetch: (request) => fetchImpl(request) }),
    graphql: graphqlOverHttp(`${baseUrl}/graphql`, headers, fetchImpl),
    subscriptions: () =>
      graphqlSubscriptions(`${baseUrl}/graphql`, connectionInitPayload(options.credentials), options.webSocketImpl),
  };
}
