import { describe, expect, it } from 'vitest';
import { EventFeed } from '../../src/events/event-feed';

/** Counts how often the feed stops its source. */
class CountingFeed extends EventFeed<number> {
  stops = 0;

  protected override stopSource(): void {
    this.stops++;
  }
}

describe('EventFeed', () => {
  it('hands events to a puller in order, and stops its source once', async () => {
    const feed = new CountingFeed();
    feed.push(1);
    const waiting = feed.next();
    feed.push(2);
    expect(await waiting).toEqual({ done: false, value: 1 });
    expect(await feed.next()).toEqual({ done: false, value: 2 });
    const idle = feed.next();
    await feed.return();
    await feed.return();
    expect(await idle).toEqual({ done: true, value: undefined });
    expect(feed.stops).toBe(1);
    feed.push(3);
    expect(await feed.next()).toEqual({ done: true, value: undefined });
  });

  it('pushes what was queued, then each event synchronously, to a listener; its end gets the failure', () => {
    const feed = new EventFeed<number>();
    feed.push(1);
    const seen: number[] = [];
    const ends: unknown[] = [];
    feed.listen({ event: (n) => seen.push(n), end: (error) => ends.push(error) });
    expect(seen).toEqual([1]);
    feed.push(2);
    expect(seen).toEqual([1, 2]);
    const failure = new Error('the table could not be read');
    feed.fail(failure);
    feed.push(3);
    expect(seen).toEqual([1, 2]);
    expect(ends).toEqual([failure]);
    expect(() => feed.listen({ event: () => undefined, end: () => undefined })).toThrow(/once/);
  });

  it('rejects a puller with the failure, after the events that came before it', async () => {
    const feed = new EventFeed<number>();
    feed.push(1);
    feed.fail(new Error('lost'));
    expect(await feed.next()).toEqual({ done: false, value: 1 });
    await expect(feed.next()).rejects.toThrow('lost');
  });
});
