import {
  createSourceEventStream,
  execute,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
} from 'graphql';
import { EventFeed } from '../events/event-feed';
import { pushResults, type PushTarget } from './pushed-results';
import { SharedResult } from './shared-result';

type Result = ExecutionResult | AsyncIterableIterator<ExecutionResult>;

/** Where subscriptions' results can be written straight to their socket (graphql-ws), and how they read there. */
export interface PushOptions<Context> {
  targetOf(context: Context): PushTarget | undefined;
  /** A result as the client receives it (its errors formatted). */
  format(result: ExecutionResult): FormattedExecutionResult;
}

/**
 * graphql-js's `subscribe`, except that an event's result is computed once for every subscriber
 * with the same document (object), variables and audience, instead of once per subscriber: one status
 * change watched by many dashboards is one execution, not one identical execution per dashboard
 * (docs/performance.md). Events are shared by identity (the status-event bus hands every listener the same
 * object); an event read back for one subscriber (a replay) is its own and executes for it alone.
 *
 * `audienceOf` names everything in a subscriber's context that can change a result (its client,
 * environment and editor scope): only subscribers with the same audience share. With `push`, a
 * subscription whose events come from an event feed and whose context has a push target has its
 * results written to the socket as the events arrive (pushed-results.ts), serialized once.
 */
export function subscribeSharingResults<Context>(
  audienceOf: (context: Context) => string,
  push?: PushOptions<Context>,
): (args: ExecutionArgs) => Promise<Result> {
  const resultsByEvent = new WeakMap<object, Map<string, SharedResult>>();
  // The same document object is the same operation (graphql-ws's parse shares them, shared-documents.ts):
  // a number names it in the key instead of its printed text, which each subscription would hold.
  const documentNumbers = new WeakMap<DocumentNode, number>();
  let lastNumber = 0;
  const numberOf = (document: DocumentNode) => {
    let number = documentNumbers.get(document);
    if (number === undefined) documentNumbers.set(document, (number = ++lastNumber));
    return number;
  };

  return async (args) => {
    const stream = await createSourceEventStream(args);
    if (!isAsyncIterable(stream)) return stream;
    const key = [
      audienceOf(args.contextValue as Context),
      args.operationName ?? '',
      JSON.stringify(args.variableValues ?? {}),
      numberOf(args.document),
    ].join('\n');
    const executeFor = (event: unknown) => new SharedResult(() => execute({ ...args, rootValue: event }));
    const resultOf = (event: unknown): SharedResult => {
      if (typeof event !== 'object' || event === null) return executeFor(event);
      let results = resultsByEvent.get(event);
      if (!results) resultsByEvent.set(event, (results = new Map()));
      let result = results.get(key);
      if (!result) results.set(key, (result = executeFor(event)));
      return result;
    };
    const target = push?.targetOf(args.contextValue as Context);
    if (push && target && stream instanceof EventFeed) return pushResults(stream, target, resultOf, push.format);
    return mapEvents(stream[Symbol.asyncIterator](), (event) => resultOf(event).settled);
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

/**
 * The events mapped to results. `return` goes straight to the source (as graphql-js's own mapping
 * does): an async generator waiting for the next event would only stop once one arrived, keeping
 * its listener for as long as the subject stays quiet.
 */
function mapEvents(
  source: AsyncIterator<unknown>,
  map: (event: unknown) => Promise<ExecutionResult>,
): AsyncIterableIterator<ExecutionResult> {
  const close = async () => {
    await source.return?.();
  };
  const mapped: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const next = await source.next();
      if (next.done) return { done: true, value: undefined };
      try {
        return { done: false, value: await map(next.value) };
      } catch (error) {
        await close();
        throw error;
      }
    },
    async return() {
      await close();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}
