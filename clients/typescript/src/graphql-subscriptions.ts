import { createClient, type Client } from 'graphql-ws/client';
import { PhotobookGraphQLError, type GraphQLErrorEntry } from './graphql-error';
import type { TypedDocument, VariablesArgument } from './typed-document';

/** Subscriptions over one graphql-ws connection, opened on the first subscription. */
export interface PhotobookSubscriptions {
  /** Each event's data, until `return()` (a `break` out of `for await`) or `close()`; errors are thrown. */
  subscribe<TResult, TVariables>(document: TypedDocument<TResult, TVariables>, ...variables: VariablesArgument<TVariables>): AsyncIterableIterator<TResult>;
  close(): Promise<void>;
}

/**
 * graphql-ws at `<baseUrl>/graphql` (ws:// or wss://), authenticated by the `connection_init`
 * payload. `webSocketImpl` is for runtimes without a global WebSocket (Node before 22).
 */
export function graphqlSubscriptions(endpoint: string, connectionParams: Record<string, string>, webSocketImpl?: unknown): PhotobookSubscriptions {
  const client: Client = createClient({ url: endpoint.replace(/^http/, 'ws'), connectionParams, lazy: true, webSocketImpl });
  return {
    subscribe(document, ...[variables]) {
      const results = client.iterate({ query: document.toString(), variables: variables ?? {} });
      return {
        async next() {
          const step = await results.next();
          if (step.done) return { done: true, value: undefined };
          if (step.value.errors?.length) throw new PhotobookGraphQLError(step.value.errors as GraphQLErrorEntry[]);
          return { done: false, value: step.value.data as never };
        },
        async return() {
          await results.return?.();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    },
    close: () => client.dispose() as Promise<void>,
  };
}
