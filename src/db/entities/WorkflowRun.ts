import { Entity, Enum, Index, type Opt, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';

export const WORKFLOW_RUN_STATUSES = ['running', 'completed', 'failed'] as const;
export type WorkflowRunStatus = (typeof WORKFLOW_RUN_STATUSES)[number];

/**
 * One execution of a flow in the embedded runner (src/engine/embedded-engine.ts). Its steps are the
 * journal the flow is replayed from after a restart; under Temporal, Temporal keeps this state.
 */
@Entity({ tableName: 'workflow_runs' })
@Index({ properties: ['status'] })
export class WorkflowRun {
  [PrimaryKeyProp]?: 'workflowId';

  /** Chosen by the caller (e.g. `project-build:<projectId>`): starting the same id twice runs once. */
  @PrimaryKey({ type: 'text' })
  workflowId!: string;

  @Property({ type: 'string', length: 100 })
  flowName!: string;

  @Property({ type: 'json', nullable: true })
  input?: unknown;

  @Enum({ items: () => WORKFLOW_RUN_STATUSES })
  status: WorkflowRunStatus & Opt = 'running';

  /** The flow's return value, once completed. */
  @Property({ type: 'json', nullable: true })
  result?: unknown;

  /** Why the flow failed (`Name: message` of the error it threw). */
  @Property({ type: 'text', nullable: true })
  error?: string | null;

  /** Also the origin of the flow's clock (`FlowContext.now()`), so it is set in ms by the engine. */
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt: Date & Opt = new Date();
}
