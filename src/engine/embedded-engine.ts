import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { ActivityFunctions, FlowDefinition } from '../../workflows/flow-context';
import { WorkflowRun } from '../db/entities/WorkflowRun';
import { FlowExecution } from './flow-execution';
import { RunLocks } from './run-locks';
import { SignalWaiters } from './signal-waiters';
import {
  UnknownFlowError,
  WorkflowNotFoundError,
  type ManagedWorkflowEngine,
  type WorkflowOutcome,
} from './workflow-engine';

export interface EmbeddedEngineOptions {
  orm: MikroORM;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  flows: FlowDefinition<any, any, any>[];
  /** Every activity by name; each flow's `activityOptions` names must be among them. */
  activities: ActivityFunctions;
  log: Logger;
  /**
   * After `resumeUnfinished`, how often to look again for `running` runs nobody executes (a run
   * whose process died, or whose journal write failed). 0 turns it off. Default 30 s.
   */
  sweepIntervalMs?: number;
  /** How often waiting flows look for signals inserted by other processes. Default 500 ms. */
  signalPollMs?: number;
}

interface LocalRun {
  execution?: FlowExecution;
  done?: Promise<void>;
}

/**
 * Runs flows inside this process, durably, when there is no Temporal (TEMPORAL_ADDRESS unset).
 * Runs, their step journals and signals are rows in PostgreSQL (workflow_runs, workflow_steps,
 * workflow_signals); a restarted process replays each unfinished run from its journal
 * (see FlowExecution). A run executes in at most one place: once per process (the `local` map)
 * and once across processes (a session-level advisory lock, see RunLocks).
 */
export class EmbeddedEngine implements ManagedWorkflowEngine {
  private readonly orm: MikroORM;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private readonly flows = new Map<string, FlowDefinition<any, any, any>>();
  private readonly activities: ActivityFunctions;
  private readonly log: Logger;
  private readonly local = new Map<string, LocalRun>();
  /** Runs whose flow disagrees with their journal: not retried by the sweep until a restart. */
  private readonly blocked = new Set<string>();
  private readonly finishListeners = new Map<string, Set<() => void>>();
  private readonly locks: RunLocks;
  private readonly signalWaiters: SignalWaiters;
  private readonly sweepIntervalMs: number;
  private sweepTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(options: EmbeddedEngineOptions) {
    this.orm = options.orm;
    this.activities = options.activities;
    this.log = options.log.child({ component: 'embedded-workflow-engine' });
    this.sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
    for (const flow of options.flows) {
      if (this.flows.has(flow.name)) throw new Error(`Two flows are named "${flow.name}"`);
      for (const activity of Object.keys(flow.activityOptions)) {
        if (typeof options.activities[activity] !== 'function') {
          throw new Error(`Flow ${flow.name} uses activity "${activity}", which is not among the activities given to the engine`);
        }
      }
      this.flows.set(flow.name, flow);
    }
    this.locks = new RunLocks(RunLocks.connectionOf(this.orm), this.log, (error) => {
      for (const run of this.local.values()) run.execution?.stop(`workflow lock connection lost: ${error.message}`);
    });
    this.signalWaiters = new SignalWaiters((ids) => this.pendingSignals(ids), options.signalPollMs ?? 500, this.log);
  }

  async start<I>(flowName: string, workflowId: string, input: I): Promise<void> {
    if (!this.flows.has(flowName)) throw new UnknownFlowError(flowName);
    this.assertRunning();
    const now = new Date();
    const inserted = await this.orm.em.fork().execute<Array<{ workflow_id: string }>>(
      `insert into workflow_runs (workflow_id, flow_name, input, status, created_at, updated_at)
       values (?, ?, ?::jsonb, 'running', ?, ?)
       on conflict (workflow_id) do nothing
       returning workflow_id`,
      [workflowId, flowName, input === undefined ? null : JSON.stringify(input), now, now],
    );
    if (inserted.length > 0) {
      this.log.info({ workflowId, flow: flowName }, 'flow started');
      this.launch(workflowId);
    }
    // An existing id is a no-op: the run is running (here, elsewhere, or waiting for the sweep),
    // or it has finished.
  }

  async signal(workflowId: string, name: string, payload?: unknown): Promise<void> {
    const inserted = await this.orm.em.fork().execute<Array<{ id: string }>>(
      `insert into workflow_signals (workflow_id, name, payload, created_at)
       select ?, ?, ?::jsonb, now()
        where exists (select 1 from workflow_runs where workflow_id = ? and status = 'running')
       returning id`,
      [workflowId, name, payload === undefined ? null : JSON.stringify(payload), workflowId],
    );
    if (inserted.length === 0) throw new WorkflowNotFoundError(workflowId);
    this.signalWaiters.poke(workflowId, name);
  }

  /** Executes every run left `running` (at start; then every `sweepIntervalMs`). */
  async resumeUnfinished(): Promise<void> {
    this.assertRunning();
    await this.sweep();
    if (this.sweepIntervalMs > 0 && !this.sweepTimer) {
      this.sweepTimer = setInterval(() => {
        this.sweep().catch((error: unknown) => this.log.warn({ err: error }, 'looking for unfinished flows failed'));
      }, this.sweepIntervalMs);
      this.sweepTimer.unref();
    }
  }

  async waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowOutcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = await this.orm.em.fork().findOne(WorkflowRun, { workflowId });
      if (run?.status === 'completed') return { status: 'completed', result: run.result ?? undefined };
      if (run?.status === 'failed') return { status: 'failed', error: run.error ?? undefined };
      const left = deadline - Date.now();
      if (left <= 0) {
        if (!run) throw new WorkflowNotFoundError(workflowId);
        return { status: 'running' };
      }
      await this.finishedHere(workflowId, Math.min(left, 250));
    }
  }

  /**
   * Stops every execution of this process at once, as a crash would: pending sleeps and waits
   * reject inside the flows, outcomes of activities still running are not recorded, and the runs
   * stay `running`, to be resumed by `resumeUnfinished` of the next engine on this database.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.sweepTimer);
    this.signalWaiters.stop();
    for (const run of this.local.values()) run.execution?.stop();
    await Promise.all([...this.local.values()].map((run) => run.done));
    await this.locks.close();
  }

  private async sweep(): Promise<void> {
    const runs = await this.orm.em
      .fork()
      .find(WorkflowRun, { status: 'running' }, { fields: ['workflowId'], orderBy: { createdAt: 'asc' } });
    for (const { workflowId } of runs) {
      if (!this.blocked.has(workflowId)) this.launch(workflowId);
    }
  }

  /** Executes the run here unless it already executes here or elsewhere. Never throws. */
  private launch(workflowId: string): void {
    if (this.stopped || this.local.has(workflowId)) return;
    const run: LocalRun = {};
    this.local.set(workflowId, run);
    run.done = this.execute(workflowId, run)
      .catch((error: unknown) => this.log.error({ workflowId, err: error }, 'flow execution failed; the run resumes later'))
      .finally(() => {
        this.local.delete(workflowId);
        for (const listener of this.finishListeners.get(workflowId) ?? []) listener();
      });
  }

  private async execute(workflowId: string, local: LocalRun): Promise<void> {
    if (!(await this.locks.tryLock(workflowId))) {
      this.log.debug({ workflowId }, 'run executes in another process');
      return;
    }
    try {
      const run = await this.orm.em.fork().findOne(WorkflowRun, { workflowId });
      if (this.stopped || !run || run.status !== 'running') return;
      const flow = this.flows.get(run.flowName);
      if (!flow) {
        this.blocked.add(workflowId);
        this.log.error({ workflowId, flow: run.flowName }, 'run of an unknown flow; it stays running until a version that knows it resumes it');
        return;
      }
      local.execution = new FlowExecution({
        orm: this.orm,
        flow,
        activities: this.activities,
        log: this.log,
        signalWaiters: this.signalWaiters,
        run: { workflowId, input: run.input ?? undefined, createdAt: run.createdAt },
      });
      const end = await local.execution.run();
      if (end.kind === 'blocked') this.blocked.add(workflowId);
    } finally {
      await this.locks.unlock(workflowId).catch((error: unknown) => this.log.warn({ workflowId, err: error }, 'releasing a run lock failed'));
    }
  }

  private finishedHere(workflowId: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      let listeners = this.finishListeners.get(workflowId);
      if (!listeners) this.finishListeners.set(workflowId, (listeners = new Set()));
      const done = () => {
        clearTimeout(timer);
        listeners.delete(done);
        if (listeners.size === 0) this.finishListeners.delete(workflowId);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      listeners.add(done);
    });
  }

  private async pendingSignals(workflowIds: string[]): Promise<Array<{ workflowId: string; name: string }>> {
    const found: Array<{ workflowId: string; name: string }> = [];
    for (let i = 0; i < workflowIds.length; i += 500) {
      const ids = workflowIds.slice(i, i + 500);
      const rows = await this.orm.em.fork().execute<Array<{ workflow_id: string; name: string }>>(
        `select distinct workflow_id, name from workflow_signals
          where consumed_at is null and workflow_id in (${ids.map(() => '?').join(', ')})`,
        ids,
      );
      for (const row of rows) found.push({ workflowId: row.workflow_id, name: row.name });
    }
    return found;
  }

  private assertRunning(): void {
    if (this.stopped) throw new Error('The embedded workflow engine is stopped');
  }
}
