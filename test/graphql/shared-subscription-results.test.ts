import { describe, expect, it } from 'vitest';
import {
  GraphQLInt,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionResult,
  type FormattedExecutionResult,
} from 'graphql';
import { EventFeed } from '../../src/events/event-feed';
import { subscribeSharingResults } from '../../src/graphql/shared-subscription-results';
import { sharedDocumentParser } from '../../src/graphql/shared-documents';

interface Tick {
  n: number;
  slow?: boolean;
}

/**
 * A tiny schema whose `tick` resolver counts its executions; its events come from `subscribe`. A
 * negative tick fails its execution, a `slow` one resolves later.
 */
function schemaOf(subscribe: () => AsyncIterable<Tick>) {
  let executions = 0;
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        tick: {
          type: GraphQLInt,
          args: { times: { type: GraphQLInt } },
          subscribe,
          resolve: (tick: Tick, { times }: { times?: number }) => {
            executions++;
            if (tick.n < 0) throw new Error('negative tick');
            const value = tick.n * (times ?? 1);
            return tick.slow ? new Promise((resolve) => setTimeout(() => resolve(value), 20)) : value;
          },
        },
      },
    }),
  });
  return { schema, executions: () => executions };
}

/** Events from `emit` to listeners, each pulled through its own async iterator. */
function tickSchema() {
  const listeners = new Set<(tick: Tick) => void>();
  return {
    ...schemaOf(() => listen(listeners)),
    emit: (tick: Tick) => listeners.forEach((listener) => listener(tick)),
    listeners,
  };
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

async function subscribeAs(
  subscribe: ReturnType<typeof subscribeSharingResults<{ audience: string }>>,
  schema: GraphQLSchema,
  audience: string,
  query: string,
) {
  const result = await subscribe({ schema, document: parseShared(query), contextValue: { audience } });
  if (!(Symbol.asyncIterator in result)) throw new Error(JSON.stringify(result));
  return result as AsyncIterableIterator<ExecutionResult>;
}

describe('subscriptions share one execution per event', () => {
  it('executes an event once for subscribers of the same document, variables and audience, and gives each the same result', async () => {
    const { schema, emit, executions } = tickSchema();
    const subscribe = subscribeSharingResults<{ audience: string }>((context) => context.audience);
    const same = await Promise.all(
      [1, 2, 3].map(() => subscribeAs(subscribe, schema, 'shop-a', 'subscription { tick }')),
    );
    const otherAudience = await subscribeAs(subscribe, schema, 'shop-b', 'subscription { tick }');
    const otherArguments = await subscribeAs(subscribe, schema, 'shop-a', 'subscription { tick(times: 10) }');

    emit({ n: 4 });
    const results = await Promise.all(
      [...same, otherAudience, otherArguments].map((subscription) => subscription.next()),
    );
    expect(results.map((result) => result.value)).toEqual([
      { data: { tick: 4 } },
      { data: { tick: 4 } },
      { data: { tick: 4 } },
      { data: { tick: 4 } },
      { data: { tick: 40 } },
    ]);
    // One execution for the three alike, one for the other shop, one for the other arguments.
    expect(executions()).toBe(3);

    // The same text parsed apart (a document dropped from the parser's cache meanwhile) is executed for itself.
    const parsedApart = await subscribe({
      schema,
      document: parse('subscription { tick }'),
      contextValue: { audience: 'shop-a' },
    });
    emit({ n: 5 });
    await Promise.all(
      [...same, otherAudience, otherArguments, parsedApart as AsyncIterableIterator<ExecutionResult>].map(
        (subscription) => subscription.next(),
      ),
    );
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
    const result = await subscribe({
      schema,
      document: parse('subscription { tick(times: "x") }'),
      contextValue: { audience: 'a' },
    });
    expect(Symbol.asyncIterator in result).toBe(false);
    expect((result as ExecutionResult).errors?.[0].message).toMatch(/times/);
  });
});

/** A feed in `feeds` until it stops, as a bus subscription is registered until it stops. */
class RegisteredFeed extends EventFeed<Tick> {
  constructor(private readonly feeds: Set<EventFeed<Tick>>) {
    super();
    feeds.add(this);
  }

  protected override stopSource(): void {
    this.feeds.delete(this);
  }
}

/** Events from `emit` to event feeds (as the status-event bus's are), which can be pushed. */
function feedSchema() {
  const feeds = new Set<EventFeed<Tick>>();
  const subscribe = () => new RegisteredFeed(feeds);
  return { ...schemaOf(subscribe), emit: (tick: Tick) => feeds.forEach((feed) => feed.push(tick)), feeds };
}

describe('subscription results pushed to sockets', () => {
  const parseShared = sharedDocumentParser();
  type Context = { audience: string; id: string };

  function pushing() {
    const sent = new Map<string, unknown[]>();
    let formats = 0;
    const subscribe = subscribeSharingResults<Context>((context) => context.audience, {
      targetOf: (context) => ({
        id: context.id,
        send: (text) => sent.set(context.id, [...(sent.get(context.id) ?? []), JSON.parse(text)]),
      }),
      format: (result) => {
        formats++;
        return result.errors
          ? { ...result, errors: result.errors.map((error) => ({ message: `formatted: ${error.message}` })) }
          : (result as FormattedExecutionResult);
      },
    });
    const open = async (schema: GraphQLSchema, id: string) => {
      const subscription = (await subscribe({
        schema,
        document: parseShared('subscription { tick }'),
        contextValue: { audience: 'shop', id },
      })) as AsyncIterableIterator<ExecutionResult>;
      return { subscription, ended: subscription.next() };
    };
    return { sent, open, formats: () => formats };
  }

  it("writes each event's result to every socket as graphql-ws's next message, executed and serialized once, in event order", async () => {
    const { schema, emit, executions } = feedSchema();
    const { sent, open, formats } = pushing();
    await open(schema, 'a');
    await open(schema, 'b');
    emit({ n: 1 });
    // Written synchronously, within the emit.
    expect(sent.get('a')).toEqual([{ id: 'a', type: 'next', payload: { data: { tick: 1 } } }]);
    emit({ n: 2, slow: true });
    emit({ n: 3 });
    // 3 is ready at once but waits for 2.
    expect(sent.get('b')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const id of ['a', 'b'])
      expect(
        sent.get(id)!.map((message) => (message as { payload: { data: { tick: number } } }).payload.data.tick),
      ).toEqual([1, 2, 3]);
    expect(executions()).toBe(3);
    expect(formats()).toBe(3);
  });

  it("writes a result's errors as the format makes them", async () => {
    const { schema, emit } = feedSchema();
    const { sent, open } = pushing();
    await open(schema, 'a');
    emit({ n: -1 });
    expect(sent.get('a')).toEqual([
      { id: 'a', type: 'next', payload: { data: { tick: null }, errors: [{ message: 'formatted: negative tick' }] } },
    ]);
  });

  it('ends when the subscriber leaves: nothing more is written, the feed is stopped', async () => {
    const { schema, emit, feeds } = feedSchema();
    const { sent, open } = pushing();
    const { subscription, ended } = await open(schema, 'a');
    await subscription.return!();
    await expect(ended).resolves.toEqual({ done: true, value: undefined });
    expect(feeds.size).toBe(0);
    emit({ n: 1 });
    expect(sent.get('a')).toBeUndefined();
  });

  it("ends after the results already under way are written, and fails with the feed's failure", async () => {
    const { schema, emit, feeds } = feedSchema();
    const { sent, open } = pushing();
    const { ended } = await open(schema, 'a');
    emit({ n: 1, slow: true });
    const [feed] = feeds;
    feed!.fail(new Error('the table could not be read'));
    await expect(ended).rejects.toThrow('the table could not be read');
    expect(sent.get('a')).toHaveLength(1);
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
