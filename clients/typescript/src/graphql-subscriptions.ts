import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws/client';
import { PhotobookGraphQLError, type GraphQLErrorEntry } from './graphql-error';
import type { TypedDocument, VariablesArgument } from './typed-document';

/** Subscriptions over one graphql-ws connection, opened on the first subscription. */
export interface PhotobookSubscriptions {
  /**
   * Each event's data, until the service completes the subscription or `return()` ends it (a
   * `break` out of `for await`, or a call from elsewhere, which also ends a pending wait); an
   * error answer or a closed connection is thrown.
   */
  subscribe<TResult, TVariables>(
    document: TypedDocument<TResult, TVariables>,
    ...variables: VariablesArgument<TVariables>
  ): AsyncIterableIterator<TResult>;
  close(): Promise<void>;
}

/** Close codes the service refuses a connection with: 4403 credentials refused, 4410 editor link ended. */
const REFUSALS = [4403, 4410];

/**
 * graphql-ws at `<baseUrl>/graphql` (ws:// or wss://), authenticated by the `connection_init`
 * payload. `webSocketImpl` is for runtimes without a global WebSocket (Node before 22).
 */
export function graphqlSubscriptions(
  endpoint: string,
  connectionParams: Record<string, string>,
  webSocketImpl?: unknown,
): PhotobookSubscriptions {
  const client: Client = createClient({
    url: endpoint.replace(/^http/, 'ws'),
    connectionParams,
    lazy: true,
    webSocketImpl,
    // A closed connection is retried (graphql-ws's default), but refused credentials would only be refused again.
    shouldRetry: (closed) =>
      typeof (closed as CloseEvent)?.code === 'number' && !REFUSALS.includes((closed as CloseEvent).code),
  });
  return {
    subscribe<TResult, TVariables>(
      document: TypedDocument<TResult, TVariables>,
      ...[variables]: VariablesArgument<TVariables>
    ) {
      const events = new EventQueue<TResult>();
      const unsubscribe = client.subscribe(
        { query: document.toString(), variables: (variables ?? {}) as Record<string, unknown> },
        {
          next: (result: FormattedExecutionResult) =>
            result.errors?.length
              ? events.fail(new PhotobookGraphQLError(result.errors as GraphQLErrorEntry[]))
              : events.push(result.data as TResult),
          error: (error) =>
            events.fail(
              error instanceof Error ? error : new Error(`the subscription's connection closed: ${describe(error)}`),
            ),
          complete: () => events.end(),
        },
      );
      return {
        next: () => events.next(),
        async return() {
          unsubscribe();
          events.end();
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

/** Events in arrival order, for one reader; the end or a failure is given after what came before. */
class EventQueue<T> {
  private readonly queued: T[] = [];
  private finished: { error?: Error } | undefined;
  private wake: (() => void) | undefined;

  push(value: T): void {
    if (this.finished) return;
    this.queued.push(value);
    this.wake?.();
  }

  fail(error: Error): void {
    this.finished ??= { error };
    this.wake?.();
  }

  end(): void {
    this.finished ??= {};
    this.wake?.();
  }

  async next(): Promise<IteratorResult<T, undefined>> {
    while (!this.queued.length && !this.finished) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    if (this.queued.length) return { done: false, value: this.queued.shift()! };
    if (this.finished?.error) throw this.finished.error;
    return { done: true, value: undefined };
  }
}

/** A CloseEvent ("4403: Forbidden") or whatever else graphql-ws reports. */
function describe(error: unknown): string {
  const close = error as { code?: number; reason?: string };
  return typeof close?.code === 'number' ? `${close.code}${close.reason ? `: ${close.reason}` : ''}` : String(error);
}
