import { readSubjectEvents, type StatusEventMessage } from '../events/status-event-log';
import { ValidationError } from '../domain/errors';
import type { GraphqlContext } from './context';
import { tenantAudience } from './tenant-events';
import { EventFeed } from '../events/event-feed';
import type { EventAudience, StatusEventListener } from '../events/status-event-bus';

export interface Subject {
  subjectType: string;
  subjectId: string;
}

/** A live event, or word that the listener was away and the table must be read. */
type Arrival = StatusEventMessage | 'reconnected';

/**
 * One subject's status events, in sequence order, each once. With `afterSequence` it first replays
 * what the subscriber missed from the status-event table, then goes on live. It listens before it
 * reads, so an event committed in between is heard, and drops what it has already handed on. What
 * the live feed misses (the listener reconnecting after a database restart) is read from the table
 * too: at a gap in the sequence, and as soon as the listener is back. A live event in order is
 * handed on synchronously; while the table is being read, later arrivals wait behind the read.
 */
export function subscribeSubjectEvents(
  context: GraphqlContext,
  subject: Subject,
  afterSequence?: number | null,
): EventFeed<StatusEventMessage> {
  if (afterSequence != null && (!Number.isInteger(afterSequence) || afterSequence < 0)) {
    throw ValidationError.field('afterSequence', 'must be a whole number, 0 or more');
  }
  return new SubjectEventFeed(context, subject, afterSequence ?? undefined);
}

/** A class, not closures: a handful of closures held by every subscription would cost memory (docs/performance.md). */
class SubjectEventFeed extends EventFeed<StatusEventMessage> implements StatusEventListener {
  /** Arrivals waiting behind a read of the table; undefined when none is under way. */
  private waiting?: Arrival[];

  constructor(
    private readonly context: GraphqlContext,
    private readonly subject: Subject,
    private last: number | undefined,
  ) {
    super();
    context.bus.on(this.audience(), this);
    if (last !== undefined) void this.catchUp('reconnected');
  }

  statusEvent(event: StatusEventMessage): void {
    this.arrive(event);
  }

  reconnected(): void {
    this.arrive('reconnected');
  }

  protected override stopSource(): void {
    this.context.bus.off(this.audience(), this);
  }

  private audience(): EventAudience {
    return { ...tenantAudience(this.context), subject: this.subject };
  }

  private arrive(arrival: Arrival): void {
    if (this.waiting) this.waiting.push(arrival);
    else if (this.needsRead(arrival)) void this.catchUp(arrival);
    else if (arrival !== 'reconnected') this.handOn(arrival);
  }

  private needsRead(arrival: Arrival): boolean {
    return this.last !== undefined && (arrival === 'reconnected' || arrival.sequence > this.last + 1);
  }

  private handOn(event: StatusEventMessage): void {
    if (this.last !== undefined && event.sequence <= this.last) return;
    this.last = event.sequence;
    this.push(event);
  }

  private async catchUp(first: Arrival): Promise<void> {
    const queue = (this.waiting = [first]);
    try {
      while (queue.length > 0 && !this.isStopped) {
        const arrival = queue.shift()!;
        if (this.needsRead(arrival)) {
          const before = arrival === 'reconnected' ? undefined : arrival.sequence;
          for (const missed of await readSubjectEvents(this.context.ctx.em, this.subject, this.last!, before))
            this.handOn(missed);
        }
        if (arrival !== 'reconnected') this.handOn(arrival);
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.waiting = undefined;
    }
  }
}

/** `afterSequence` counts one subject's events: refused where a subscription covers several. */
export function refuseResumeOfSeveralSubjects(afterSequence: number | null | undefined, needs: string): void {
  if (afterSequence != null)
    throw ValidationError.field('afterSequence', `resuming needs ${needs}: sequences count the events of one subject`);
}
