import type { ExecutionResult, FormattedExecutionResult } from 'graphql';
import type { EventFeed, FeedSink } from '../events/event-feed';
import type { SharedResult } from './shared-result';

/** A graphql-ws subscription's socket: its operation id and how text is written to it. */
export interface PushTarget {
  id: string;
  send(text: string): void;
}

type Done = IteratorResult<ExecutionResult, undefined>;
const DONE: Done = { done: true, value: undefined };

/**
 * A subscription whose results are written to its socket as its feed pushes events, instead of
 * being pulled through a promise per subscriber and event: one status change reaches every
 * socket in one synchronous pass, each result serialized once for all who share it
 * (docs/performance.md). graphql-ws gets an iterator that yields nothing and ends when the feed does, after
 * the last result was written, so its `complete` or error message still comes last.
 *
 * The message is graphql-ws's own `next` message: `{"id", "type": "next", "payload"}`.
 */
export function pushResults(
  feed: EventFeed<unknown>,
  target: PushTarget,
  resultOf: (event: unknown) => SharedResult,
  format: (result: ExecutionResult) => FormattedExecutionResult,
): AsyncIterableIterator<ExecutionResult> {
  return new PushedResults(feed, target, resultOf, format);
}

class PushedResults implements AsyncIterableIterator<ExecutionResult>, FeedSink<unknown> {
  /** Results not yet written, in event order: a later event's result never overtakes an earlier one. */
  private readonly unsent: SharedResult[] = [];
  private listening = false;
  private ending?: { error: unknown };
  private resolveEnd?: (done: Done) => void;
  private rejectEnd?: (error: unknown) => void;
  private readonly ended: Promise<Done>;

  constructor(
    private readonly feed: EventFeed<unknown>,
    private readonly target: PushTarget,
    private readonly resultOf: (event: unknown) => SharedResult,
    private readonly format: (result: ExecutionResult) => FormattedExecutionResult,
  ) {
    this.ended = new Promise<Done>((resolve, reject) => {
      this.resolveEnd = resolve;
      this.rejectEnd = reject;
    });
  }

  event(event: unknown): void {
    const result = this.resultOf(event);
    this.unsent.push(result);
    if (result.isSettled) this.flush();
    else result.whenSettled(() => this.flush());
  }

  end(error?: unknown): void {
    this.ending = { error };
    this.flush();
  }

  /** Writes the settled results at the head of the line; resolves the end once all are written. */
  private flush(): void {
    try {
      while (this.unsent.length > 0 && this.unsent[0]!.isSettled) {
        const result = this.unsent.shift()!;
        this.target.send(
          `{"id":${JSON.stringify(this.target.id)},"type":"next","payload":${result.payloadJson(this.format)}}`,
        );
      }
    } catch (error) {
      this.unsent.length = 0;
      this.ending ??= { error };
      this.feed.fail(error);
    }
    if (!this.ending || this.unsent.length > 0) return;
    if (this.ending.error === undefined) this.resolveEnd?.(DONE);
    else this.rejectEnd?.(this.ending.error);
  }

  /** graphql-ws starts consuming once the subscription is registered: pushing starts then. */
  next(): Promise<Done> {
    if (!this.listening) {
      this.listening = true;
      this.feed.listen(this);
    }
    return this.ended;
  }

  async return(): Promise<Done> {
    this.unsent.length = 0;
    this.feed.stop();
    return DONE;
  }

  async throw(error: unknown): Promise<Done> {
    this.unsent.length = 0;
    this.feed.stop();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
