import { readSubjectEvents, type StatusEventMessage } from '../events/status-event-log';
import { ValidationError } from '../domain/errors';
import type { GraphqlContext } from './context';
import { tenantAudience } from './tenant-events';

export interface Subject {
  subjectType: string;
  subjectId: string;
}

/** A live event, or word that the listener was away and the table must be read. */
type Arrival = StatusEventMessage | 'reconnected';

/**
 * One subject's status events, in sequence order, each once. With `afterSequence` it first replays
 * what the subscriber missed from the status-event table, then goes on live. It listens before it
 * reads, so an event committed in between is heard, and drops what it has already sent. What the
 * live feed misses (the listener reconnecting after a database restart) is read from the table too:
 * at a gap in the sequence, and as soon as the listener is back.
 */
export function subscribeSubjectEvents(context: GraphqlContext, subject: Subject, afterSequence?: number | null): AsyncIterableIterator<StatusEventMessage> {
  if (afterSequence != null && (!Number.isInteger(afterSequence) || afterSequence < 0)) {
    throw ValidationError.field('afterSequence', 'must be a whole number, 0 or more');
  }
  const arrivals: Arrival[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const arrive = (arrival: Arrival) => {
    arrivals.push(arrival);
    wake?.();
  };
  const offEvents = context.bus.on({ ...tenantAudience(context), subject }, arrive);
  const offReconnected = context.bus.onReconnected(() => arrive('reconnected'));
  const finish = () => {
    done = true;
    offEvents();
    offReconnected();
    wake?.();
  };
  const read = (after: number, before?: number) => readSubjectEvents(context.ctx.em, subject, after, before);

  async function* inOrder(): AsyncGenerator<StatusEventMessage> {
    let last = afterSequence ?? undefined;
    if (last !== undefined) {
      for (const missed of await read(last)) {
        yield missed;
        last = missed.sequence;
      }
    }
    while (!done) {
      if (arrivals.length === 0) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      const arrival = arrivals.shift()!;
      if (arrival === 'reconnected') {
        if (last === undefined) continue;
        for (const missed of await read(last)) {
          yield missed;
          last = missed.sequence;
        }
        continue;
      }
      if (last !== undefined && arrival.sequence > last + 1) {
        for (const missed of await read(last, arrival.sequence)) {
          yield missed;
          last = missed.sequence;
        }
      }
      if (last !== undefined && arrival.sequence <= last) continue;
      yield arrival;
      last = arrival.sequence;
    }
  }

  const events = inOrder();
  const iterator: AsyncIterableIterator<StatusEventMessage> = {
    next: () => events.next(),
    // Stops listening first: a generator waiting for the next event would only see `return` once
    // one arrived, keeping its listener for as long as the subject stays quiet.
    async return() {
      finish();
      return events.return(undefined);
    },
    async throw(error) {
      finish();
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
