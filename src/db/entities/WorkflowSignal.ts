import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { WorkflowRun } from './WorkflowRun';

/**
 * A signal sent to a run of the embedded runner. It waits here until the flow asks for the next
 * signal of that name; consuming it and recording the flow's step happen in one transaction.
 */
@Entity({ tableName: 'workflow_signals' })
@Index({ properties: ['run', 'name', 'id'] })
export class WorkflowSignal {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => WorkflowRun, { fieldName: 'workflow_id', deleteRule: 'cascade' })
  run!: WorkflowRun;

  @Property({ type: 'string', length: 200 })
  name!: string;

  /** SQL NULL when the signal carried no payload. */
  @Property({ type: 'json', nullable: true })
  payload?: unknown;

  @Property({ type: 'datetime', nullable: true })
  consumedAt?: Date | null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
