import { describe, expect, it } from 'vitest';
import { GraphQLInt, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, type ExecutionResult } from 'graphql';
import { subscribeSharingResults } from '../src/graphql/shared-subscription-results';
import { sharedDocumentParser } from '../src/graphql/shared-documents';

interface Tick {
  n: number;
}

/** A tiny schema whose `tick` resolver counts its executions; its events come from `emit`. */
function tickSchema() {
  const listeners = new Set<(tick: Tick) => void>();
  let executions = 0;
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        tick: {
          type: GraphQLInt,
          args: { times: { type: GraphQLInt } },
          subscribe: () => listen(listeners),
          resolve: (tick: Tick, { times }: { times?: number }) => {
            executions++;
            return tick.n * (times ?? 1);
          },
        },
      },
    }),
  });
  return { schema, emit: (tick: Tick) => listeners.forEach((listener) => listener(tick)), executions: () => executions, listeners };
}

/** An event source like the status-event bus: every listener is handed the same object. */
function listen(listeners: Set<(tick: Tick) => void>): AsyncIterableIterator<Tick> {
  const queue: Tick[] = [];
  let wake: (() => void) | undefined;
  const listener = (tick: Tick) => {
    queue.push(tick);
    wake?.();
  };
  listeners.add(listener);
  const iterator: AsyncIterableIterator<Tick> = {
    async next() {
      while (queue.length === 0) {
        if (!listeners.has(listener)) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return { done: false, value: queue.shift()! };
    },
    async return() {
      listeners.delete(listener);
      wake?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** As graphql-ws parses in the service: one document object per operation text. */
const parseShared = sharedDocumentParser();

async function subscribeAs(subscribe: ReturnType<typeof subscribeSharingResults<{ audience: string }>>, schema: GraphQLSchema, audience: string, query: string) {
  const result = await subscribe({ schema, document: parseShared(query), contextValue: { audience } });
  if (!(Symbol.asyncIterator in result)) throw new Error(JSON.stringify(result));
  return result as AsyncIterableIterator<ExecutionResult>;
}

describe('subscriptions share one execution per event', () => {
  it('executes an event once for subscribers of the same document, variables and audience, and gives each the same result', async () => {
    const { schema, emit, executions } = tickSchema();
    const subscribe = subscribeSharingResults<{ audience: string }>((context) => context.audience);
    const same = await Promise.all([1, 2, 3].map(() => subscribeAs(subscribe, schema, 'shop-a', 'subscription { tick }')));
    const otherAudience = await subscribeAs(subscribe, schema, 'shop-b', 'subscription { tick }');
    const otherArguments = await subscribeAs(subscribe, schema, 'shop-a', 'subscription { tick(times: 10) }');

    emit({ n: 4 });
    const results = await Promise.all([...same, otherAudience, otherArguments].map((subscription) => subscription.next()));
    expect(results.map((result) => result.value)).toEqual([{ data: { tick: 4 } }, { data: { tick: 4 } }, { data: { tick: 4 } }, { data: { tick: 4 } }, { data: { tick: 40 } }]);
    // One execution for the three alike, one for the other shop, one for the other arguments.
    expect(executions()).toBe(3);

    // The same text parsed apart (a document dropped from the parser's cache meanwhile) is executed for itself.
    const parsedApart = await subscribe({ schema, document: parse('subscription { tick }'), contextValue: { audience: 'shop-a' } });
    emit({ n: 5 });
    await Promise.all([...same, otherAudience, otherArguments, parsedApart as AsyncIterableIterator<ExecutionResult>].map((subscription) => subscription.next()));
    expect(executions()).toBe(7);

    emit({ n: 4 }); // equal, but another object (as a replay read from the table is): executed again
    await Promise.all(same.map((subscription) => subscription.next()));
    expect(executions()).toBe(8);
  });

  it('stops listening at once when a subscriber leaves while waiting for an event', async () => {
    const { schema, listeners } = tickSchema();
    const subscribe = subscribeSharingResults<{ audience: string }>((context) => context.audience);
    const subscription = await subscribeAs(subscribe, schema, 'a', 'subscription { tick }');
    const waiting = subscription.next();
    expect(listeners.size).toBe(1);
    await subscription.return!();
    expect(listeners.size).toBe(0);
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
  });

  it('answers a subscription that cannot start with its errors, as graphql-js does', async () => {
    const { schema } = tickSchema();
    const subscribe = subscribeSharingResults<{ audience: string }>((context) => context.audience);
    const result = await subscribe({ schema, document: parse('subscription { tick(times: "x") }'), contextValue: { audience: 'a' } });
    expect(Symbol.asyncIterator in result).toBe(false);
    expect((result as ExecutionResult).errors?.[0].message).toMatch(/times/);
  });
});

describe('sharedDocumentParser', () => {
  it('gives every parse of the same text one document, another text its own, and throws on a syntax error as parse does', () => {
    const parseShared = sharedDocumentParser();
    const first = parseShared('subscription { tick }');
    expect(parseShared('subscription { tick }')).toBe(first);
    expect(parseShared('subscription { tick(times: 2) }')).not.toBe(first);
    expect(() => parseShared('subscription { tick')).toThrow(/Syntax Error/);
  });
});
