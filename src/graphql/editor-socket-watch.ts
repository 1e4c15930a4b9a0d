import type { EventAudience, StatusEventBus, StatusEventListener } from '../events/status-event-bus';
import type { StatusEventMessage } from '../events/status-event-log';
import type { EditorSession } from '../services/context';
import { PROJECT_SUBJECT } from '../domain/status-subjects';

/**
 * graphql-ws closes an editor socket with this code (like HTTP 410 Gone) once its link ended: the
 * project went to another owner (transfer), was deleted or expired (docs/api.md, Editor URL).
 */
const EDITOR_LINK_ENDED = 4410;

/** setTimeout's longest delay (about 24.8 days); a later expiry is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
/** A check in the background that could not reach the database is tried again after this. */
const RECHECK_AFTER_FAILURE_MS = 30_000;
/** One reason for every ending, as over HTTP: the old link's holder learns no more than that it ended. */
const ENDED_REASON = 'the editor link ended: the project was transferred, deleted or has expired';

/** What the watch needs of the socket and of the editor service. */
export interface WatchedSocket {
  close(code: number, reason: string): void;
}
export interface SessionCheck {
  stillOpen(session: EditorSession): Promise<boolean>;
}

/**
 * Ends an editor socket when its link ends, in whichever process holds the socket:
 * - the project's status events reach every process (LISTEN/NOTIFY): one that names another owner
 *   (a transfer, which gave the project a new key) or `deleted` closes the socket, synchronously
 *   and before the event is handed to any subscription (the bus's guards hear it first), so the
 *   socket never shows the new owner's event;
 * - at the project's expiry the session is checked again (an ordered project does not expire);
 * - after the bus lost its connection (events may have been missed) it is checked again too.
 * Every operation started on the socket is checked as well (graphql-server.ts), which covers a
 * transfer committed between the socket's authentication and this watch starting to listen.
 * A class, not closures: one small object per editor socket (docs/performance.md).
 */
export class EditorSocketWatch implements StatusEventListener {
  private timer?: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly session: EditorSession,
    private readonly socket: WatchedSocket,
    private readonly bus: StatusEventBus,
    private readonly check: SessionCheck,
  ) {
    bus.guard(this.audience(), this);
    this.armExpiry();
  }

  statusEvent(event: StatusEventMessage): void {
    if (event.status === 'deleted' || event.detail.user !== this.session.owner) this.end();
  }

  reconnected(): void {
    this.checkInBackground();
  }

  /** Whether the session may still start an operation (read from the database); ends the socket when it may not. */
  async stillOpen(): Promise<boolean> {
    if (this.ended) return false;
    const open = await this.check.stillOpen(this.session);
    if (!open) this.end();
    return !this.ended;
  }

  /** The socket closed: stop listening and waiting. */
  stop(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.bus.unguard(this.audience(), this);
  }

  private audience(): EventAudience & Required<Pick<EventAudience, 'subject'>> {
    const { tenant, projectId } = this.session;
    return {
      clientId: tenant.clientId,
      env: tenant.env,
      subject: { subjectType: PROJECT_SUBJECT, subjectId: projectId },
    };
  }

  private armExpiry(): void {
    const remaining = this.session.expiresAt - Date.now();
    if (remaining <= 0) this.checkInBackground();
    else this.wait(Math.min(remaining + 1, LONGEST_TIMER_MS), () => this.armExpiry());
  }

  /** A check nobody awaits: an unreachable database ends nothing, and the check is tried again later. */
  private checkInBackground(): void {
    this.stillOpen().catch(() => this.wait(RECHECK_AFTER_FAILURE_MS, () => this.checkInBackground()));
  }

  private wait(ms: number, then: () => void): void {
    if (this.ended) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(then, ms);
    this.timer.unref();
  }

  private end(): void {
    if (this.ended) return;
    this.stop();
    this.socket.close(EDITOR_LINK_ENDED, ENDED_REASON);
  }
}
