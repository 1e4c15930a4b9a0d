import { readSubjectEvents, type StatusEventMessage } from '../events/status-event-log';
import { ValidationError } from '../domain/errors';
import type { GraphqlContext } from './context';
import { subscribeTenantEvents } from './tenant-events';

export interface Subject {
  subjectType: string;
  subjectId: string;
}

/**
 * One subject's status events, in sequence order, each once. With `afterSequence` it first replays
 * what the subscriber missed from the status-event table, then goes on live. It listens before it
 * reads, so an event committed in between is heard, and drops what it has already sent. A gap in the
 * live feed (the listener reconnecting after a database restart) is filled from the table too.
 */
export function subscribeSubjectEvents(context: GraphqlContext, subject: Subject, afterSequence?: number | null): AsyncIterableIterator<StatusEventMessage> {
  if (afterSequence != null && (!Number.isInteger(afterSequence) || afterSequence < 0)) {
    throw ValidationError.field('afterSequence', 'must be a whole number, 0 or more');
  }
  const live = subscribeTenantEvents(context, (event) => event.subjectType === subject.subjectType && event.subjectId === subject.subjectId);
  const read = (after: number, before?: number) => readSubjectEvents(context.ctx.em, subject, after, before);

  async function* inOrder(): AsyncGenerator<StatusEventMessage> {
    let last = afterSequence ?? undefined;
    if (last !== undefined) {
      for (const missed of await read(last)) {
        yield missed;
        last = missed.sequence;
      }
    }
    for await (const event of live) {
      if (last !== undefined && event.sequence > last + 1) {
        for (const missed of await read(last, event.sequence)) {
          yield missed;
          last = missed.sequence;
        }
      }
      if (last !== undefined && event.sequence <= last) continue;
      yield event;
      last = event.sequence;
    }
  }

  const events = inOrder();
  const iterator: AsyncIterableIterator<StatusEventMessage> = {
    next: () => events.next(),
    // Ends the live feed first: a generator waiting for the next event would only see `return`
    // once one arrived, keeping the listener for as long as the subject stays quiet.
    async return() {
      await live.return!();
      return events.return(undefined);
    },
    async throw(error) {
      await live.return!();
      return events.throw(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** `afterSequence` counts one subject's events: refused where a subscription covers several. */
export function refuseResumeOfSeveralSubjects(afterSequence: number | null | undefined, needs: string): void {
  if (afterSequence != null) throw ValidationError.field('afterSequence', `resuming needs ${needs}: sequences count the events of one subject`);
}
