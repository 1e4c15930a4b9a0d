import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { ActivityFunctions, FlowContext, FlowDefinition } from '../../workflows/flow-context';
import { WorkflowRun } from '../db/entities/WorkflowRun';
import { WorkflowStep, type WorkflowStepKind, type WorkflowStepOutcome } from '../db/entities/WorkflowStep';
import { delay, ExecutionAbortedError, raceAbort } from './abortable';
import { asError, runActivityWithRetries } from './activity-attempts';
import type { SignalWaiters } from './signal-waiters';

/** The flow made other calls than its journal says: changed code, or non-deterministic code. */
export class NonDeterministicFlowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NonDeterministicFlowError';
  }
}

export type ExecutionEnd =
  /** The run is now completed or failed in the database. */
  | { kind: 'finished'; status: 'completed' | 'failed' }
  /** Stopped (engine stopped, lock lost, journal write failed): the run stays `running`. */
  | { kind: 'aborted' }
  /** Replay found the flow disagreeing with its journal: the run stays `running` (as Temporal does). */
  | { kind: 'blocked'; error: Error };

interface JournalStep {
  seq: number;
  kind: WorkflowStepKind;
  name: string;
  outcome: WorkflowStepOutcome | null;
  error: string | null;
  completedAt: Date | null;
  completionOrder: number | null;
}

export interface FlowExecutionDeps {
  orm: MikroORM;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  flow: FlowDefinition<any, any, any>;
  activities: ActivityFunctions;
  log: Logger;
  signalWaiters: SignalWaiters;
  run: { workflowId: string; input: unknown; createdAt: Date };
}

/**
 * Executes one run of a flow by journal replay, like a Temporal worker replays history:
 *
 * - The flow's calls to its context are numbered 1, 2, 3... When the journal has the call's step
 *   completed, its recorded outcome is handed back instead of doing the work again. Recorded
 *   outcomes are handed back in the order they first completed (`completionOrder`), one at a time,
 *   letting the flow react to each before the next; so flows running calls concurrently
 *   (Promise.all) replay exactly as they ran.
 * - Work not in the journal is done live, but its outcome reaches the flow only after the replay
 *   has caught up, and only after it is recorded. Journal writes are serialized in one chain, so
 *   `completionOrder` is the order the flow saw outcomes in.
 * - Sleeps and signal waits are recorded when they start (wake-up time, deadline), so a restart
 *   keeps waiting for what is left, and again when they complete.
 * - `now()` is the flow clock: the run's start time, advanced to the recorded completion time of
 *   each outcome as it is handed to the flow. Replay reproduces it exactly without journal entries
 *   of its own; it is the rule Temporal uses (workflow time advances per workflow task).
 */
export class FlowExecution {
  private readonly abortController = new AbortController();
  private readonly log: Logger;
  private readonly workflowId: string;
  private readonly journal = new Map<number, JournalStep>();
  private readonly replayWaiters = new Map<number, (step: JournalStep) => void>();
  private nextSeq = 1;
  private nextCompletionOrder = 0;
  private clock: number;
  private replayDone = false;
  private markReplayDone!: () => void;
  private readonly replayFinished = new Promise<void>((resolve) => (this.markReplayDone = resolve));
  private chain: Promise<unknown> = Promise.resolve();
  private flowSettled = false;
  private finished = false;
  private blockedBy?: Error;

  constructor(private readonly deps: FlowExecutionDeps) {
    this.workflowId = deps.run.workflowId;
    this.log = deps.log.child({ workflowId: this.workflowId, flow: deps.flow.name });
    this.clock = deps.run.createdAt.getTime();
  }

  private get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** Stops at once: pending waits reject, in-flight activity outcomes are dropped, nothing more is written. */
  stop(reason = 'workflow engine stopped'): void {
    if (!this.signal.aborted) this.abortController.abort(new ExecutionAbortedError(reason));
    this.markReplayDone();
  }

  async run(): Promise<ExecutionEnd> {
    try {
      await this.loadJournal();
    } catch (error) {
      if (this.signal.aborted) return { kind: 'aborted' };
      throw error;
    }
    const flowPromise = new Promise((resolve) => resolve(this.deps.flow.run(this.context(), this.deps.run.input)));
    flowPromise.then(
      () => (this.flowSettled = true),
      () => (this.flowSettled = true),
    );
    const replay = this.replay();

    let outcome: { status: 'completed'; result: unknown } | { status: 'failed'; error: Error };
    try {
      outcome = { status: 'completed', result: jsonClone(await raceAbort(flowPromise, this.signal)) };
    } catch (error) {
      outcome = { status: 'failed', error: asError(error) };
    }
    try {
      if (this.blockedBy) return { kind: 'blocked', error: this.blockedBy };
      if (this.signal.aborted) return { kind: 'aborted' };
      const written = await this.serialized(() => this.writeFinalStatus(outcome));
      this.finished = true;
      if (!written) return { kind: 'aborted' };
      return { kind: 'finished', status: outcome.status };
    } catch (error) {
      if (this.signal.aborted) return { kind: 'aborted' };
      this.log.error({ err: error }, 'could not record the end of the flow; the run stays running and will be replayed');
      return { kind: 'aborted' };
    } finally {
      this.finished = true;
      // Timers and waits the flow left behind (a lost Promise.race) end with the run.
      this.stop('flow finished');
      await replay;
      this.deps.signalWaiters.forget(this.workflowId);
    }
  }

  private async writeFinalStatus(
    outcome: { status: 'completed'; result: unknown } | { status: 'failed'; error: Error },
  ): Promise<boolean> {
    const em = this.deps.orm.em.fork();
    const changed = await em.nativeUpdate(
      WorkflowRun,
      { workflowId: this.workflowId, status: 'running' },
      outcome.status === 'completed'
        ? { status: 'completed', result: outcome.result ?? null, error: null, updatedAt: new Date() }
        : { status: 'failed', error: describeError(outcome.error), updatedAt: new Date() },
    );
    if (changed === 0) return false;
    if (outcome.status === 'completed') this.log.info('flow completed');
    else this.log.error({ err: outcome.error }, 'flow failed');
    return true;
  }

  private context(): FlowContext<ActivityFunctions> {
    const activities: ActivityFunctions = {};
    for (const name of Object.keys(this.deps.flow.activityOptions)) {
      activities[name] = (...args: unknown[]) => this.activity(name, args);
    }
    return {
      activities,
      sleep: (ms: number) => this.sleep(ms),
      waitForSignal: <T>(name: string, timeoutMs?: number) => this.waitForSignal(name, timeoutMs) as Promise<T | undefined>,
      now: () => this.clock,
    };
  }

  // ---- the three kinds of steps -------------------------------------------------------------

  private activity(name: string, args: unknown[]): Promise<unknown> {
    return this.step(
      'activity',
      name,
      (seq) => this.runActivity(seq, name, args),
      (step) => {
        if (step.error !== null) throw activityError((step.outcome as { errorName?: string } | null)?.errorName, step.error);
        return (step.outcome as { value?: unknown } | null)?.value;
      },
    );
  }

  private runActivity(seq: number, name: string, args: unknown[]): Promise<unknown> {
    const options = this.deps.flow.activityOptions[name];
    const attempt = runActivityWithRetries({
      name,
      fn: this.deps.activities[name],
      self: this.deps.activities,
      // Activities get and give JSON, as under Temporal, so live and replayed runs see the same values.
      args: args.map(jsonClone),
      options,
      signal: this.signal,
      log: this.log,
    });
    return new Promise((resolve, reject) => {
      attempt.then(
        (value) => {
          const result = jsonClone(value);
          this.complete(
            (completedAt, completionOrder) =>
              this.deps.orm.em.fork().insert(WorkflowStep, {
                run: this.workflowId,
                seq,
                kind: 'activity',
                name,
                outcome: { value: result },
                completedAt,
                completionOrder,
              }),
            () => resolve(result),
          );
        },
        (failure: Error) => {
          if (this.signal.aborted) return;
          this.log.warn({ activity: name, err: failure }, 'activity failed after its retries');
          this.complete(
            (completedAt, completionOrder) =>
              this.deps.orm.em.fork().insert(WorkflowStep, {
                run: this.workflowId,
                seq,
                kind: 'activity',
                name,
                outcome: { errorName: failure.name },
                error: failure.message,
                completedAt,
                completionOrder,
              }),
            () => reject(activityError(failure.name, failure.message)),
          );
        },
      );
    });
  }

  private sleep(ms: number): Promise<void> {
    return this.step(
      'sleep',
      'sleep',
      (seq, started) => {
        let wakeAt: number;
        if (started) {
          wakeAt = (started.outcome as { wakeAt: number }).wakeAt;
        } else {
          wakeAt = Date.now() + Math.max(0, ms);
          this.record(() =>
            this.deps.orm.em.fork().insert(WorkflowStep, { run: this.workflowId, seq, kind: 'sleep', name: 'sleep', outcome: { wakeAt } }),
          );
        }
        return new Promise<void>((resolve) => {
          delay(wakeAt - Date.now(), this.signal).then(
            () =>
              this.complete(
                (completedAt, completionOrder) =>
                  this.deps.orm.em.fork().nativeUpdate(WorkflowStep, { run: this.workflowId, seq }, { completedAt, completionOrder }),
                () => resolve(),
              ),
            () => {},
          );
        });
      },
      () => undefined,
    );
  }

  private waitForSignal(name: string, timeoutMs: number | undefined): Promise<unknown> {
    return this.step(
      'signal',
      name,
      (seq, started) => {
        let deadline: number | null;
        if (started) {
          deadline = (started.outcome as { deadline: number | null }).deadline;
        } else {
          deadline = timeoutMs === undefined ? null : Date.now() + Math.max(0, timeoutMs);
          this.record(() =>
            this.deps.orm.em.fork().insert(WorkflowStep, { run: this.workflowId, seq, kind: 'signal', name, outcome: { deadline } }),
          );
        }
        return this.awaitSignal(seq, name, deadline);
      },
      (step) => {
        const outcome = step.outcome as { received?: boolean; payload?: unknown };
        return outcome.received ? outcome.payload : undefined;
      },
    );
  }

  private async awaitSignal(seq: number, name: string, deadline: number | null): Promise<unknown> {
    const waiters = this.deps.signalWaiters;
    for (;;) {
      const version = waiters.version(this.workflowId, name);
      const taken = await this.serialized(() => this.takeSignal(seq, name, deadline));
      if (taken) {
        this.clock = taken.completedAt.getTime();
        return taken.payload;
      }
      await waiters.wait(this.workflowId, name, version, deadline, this.signal);
    }
  }

  /**
   * Consumes the oldest unconsumed signal `name` and records it as the step's outcome, in one
   * transaction; or records the timeout once the deadline has passed; or does nothing.
   */
  private async takeSignal(
    seq: number,
    name: string,
    deadline: number | null,
  ): Promise<{ payload: unknown; completedAt: Date } | undefined> {
    return this.deps.orm.em.fork().transactional(async (tx) => {
      const [signal] = await tx.execute<Array<{ id: string; payload: unknown; absent: boolean }>>(
        `select id, payload, payload is null as absent from workflow_signals
          where workflow_id = ? and name = ? and consumed_at is null
          order by id limit 1 for update skip locked`,
        [this.workflowId, name],
      );
      const completedAt = new Date();
      let outcome: WorkflowStepOutcome;
      let payload: unknown;
      if (signal) {
        payload = signal.absent ? undefined : signal.payload;
        await tx.execute(`update workflow_signals set consumed_at = ? where id = ?`, [completedAt, signal.id]);
        outcome = { deadline, received: true, payload };
      } else if (deadline !== null && completedAt.getTime() >= deadline) {
        outcome = { deadline, timedOut: true };
      } else {
        return undefined;
      }
      const completionOrder = this.nextCompletionOrder;
      await tx.nativeUpdate(WorkflowStep, { run: this.workflowId, seq }, { outcome, completedAt, completionOrder });
      this.nextCompletionOrder++;
      return { payload, completedAt };
    });
  }

  // ---- journal machinery ----------------------------------------------------------------------

  /**
   * One call of the flow to its context. `perform` does it live (given the journal row when it
   * was started but not completed before a restart); `fromJournal` turns a completed row into
   * what the call returns or throws.
   */
  private step<T>(
    kind: WorkflowStepKind,
    name: string,
    perform: (seq: number, started: JournalStep | undefined) => Promise<T>,
    fromJournal: (step: JournalStep) => T,
  ): Promise<T> {
    if (this.signal.aborted) return handled(Promise.reject(this.signal.reason));
    const seq = this.nextSeq++;
    const recorded = this.journal.get(seq);
    let promise: Promise<T>;
    if (recorded && (recorded.kind !== kind || recorded.name !== name)) {
      this.block(
        new NonDeterministicFlowError(
          `Flow ${this.deps.flow.name} called ${kind} "${name}" as step ${seq}, but its journal has ${recorded.kind} "${recorded.name}"`,
        ),
      );
      promise = Promise.reject(this.signal.reason);
    } else if (recorded?.completedAt) {
      promise = new Promise<T>((resolve, reject) => {
        this.replayWaiters.set(seq, (step) => {
          try {
            resolve(fromJournal(step));
          } catch (error) {
            reject(error);
          }
        });
      });
    } else {
      promise = perform(seq, recorded);
    }
    // Stopping rejects whatever the flow waits for. `handled` keeps a call the flow never awaits
    // from becoming an unhandled rejection; the flow still gets the rejection when it awaits.
    return handled(raceAbort(promise, this.signal));
  }

  private async loadJournal(): Promise<void> {
    const rows = await this.deps.orm.em
      .fork()
      .find(WorkflowStep, { run: this.workflowId }, { orderBy: { seq: 'asc' } });
    for (const row of rows) {
      this.journal.set(row.seq, {
        seq: row.seq,
        kind: row.kind,
        name: row.name,
        outcome: row.outcome ?? null,
        error: row.error ?? null,
        completedAt: row.completedAt ?? null,
        completionOrder: row.completionOrder ?? null,
      });
      if (row.completionOrder != null) this.nextCompletionOrder = Math.max(this.nextCompletionOrder, row.completionOrder + 1);
    }
    if (rows.length > 0) this.log.info({ steps: rows.length }, 'replaying flow from its journal');
  }

  /** Hands the journal's completed outcomes to the flow, in the order they first completed. */
  private async replay(): Promise<void> {
    const completed = [...this.journal.values()]
      .filter((step) => step.completedAt !== null)
      .sort((a, b) => (a.completionOrder ?? 0) - (b.completionOrder ?? 0) || a.seq - b.seq);
    try {
      for (const step of completed) {
        // Let the flow run until it waits again (flows only await their context, so the
        // microtask queue drains before the next macrotask).
        await new Promise((resolve) => setImmediate(resolve));
        if (this.signal.aborted || this.flowSettled) return;
        const deliver = this.replayWaiters.get(step.seq);
        if (!deliver) {
          this.block(
            new NonDeterministicFlowError(
              `Flow ${this.deps.flow.name} did not call ${step.kind} "${step.name}" (step ${step.seq}) that its journal has completed`,
            ),
          );
          return;
        }
        this.replayWaiters.delete(step.seq);
        this.clock = step.completedAt!.getTime();
        deliver(step);
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      this.replayDone = true;
      this.markReplayDone();
    }
  }

  private block(error: NonDeterministicFlowError): void {
    if (this.blockedBy || this.signal.aborted) return;
    this.blockedBy = error;
    this.log.error({ err: error }, 'flow does not match its journal; the run stays running until its code matches again');
    this.stop(error.message);
  }

  /**
   * Runs `task` after every journal write queued before it, and not before the replay has caught
   * up. Rejects with the abort reason if the execution stops first.
   */
  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(async () => {
      if (!this.replayDone) await this.replayFinished;
      if (this.signal.aborted) throw this.signal.reason;
      return task();
    });
    this.chain = run.catch(() => {});
    return run;
  }

  /** Queues a journal write; if it fails, the execution stops (the run resumes from the journal). */
  private record(write: () => Promise<unknown>): void {
    this.serialized(write).catch((error: unknown) => this.journalFailed(error));
  }

  /** Records a completed step, then hands its outcome to the flow (`deliver`), unless stopped. */
  private complete(write: (completedAt: Date, completionOrder: number) => Promise<unknown>, deliver: () => void): void {
    this.serialized(async () => {
      if (this.finished) return;
      const completedAt = new Date();
      const completionOrder = this.nextCompletionOrder;
      await write(completedAt, completionOrder);
      this.nextCompletionOrder++;
      if (this.signal.aborted) return;
      this.clock = completedAt.getTime();
      deliver();
    }).catch((error: unknown) => this.journalFailed(error));
  }

  private journalFailed(error: unknown): void {
    if (this.signal.aborted) return;
    this.log.error({ err: error }, 'could not write the flow journal; stopping the execution, the run resumes later');
    this.stop('journal write failed');
  }
}

/** The error an activity that failed for good throws into the flow: same name and message. */
function activityError(name: string | undefined, message: string): Error {
  const error = new Error(message);
  error.name = name ?? 'Error';
  return error;
}

function describeError(error: Error): string {
  return `${error.name}: ${error.message}`;
}

function jsonClone(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
