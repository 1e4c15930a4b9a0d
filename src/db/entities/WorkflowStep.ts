import { Entity, Enum, ManyToOne, type Opt, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { WorkflowRun } from './WorkflowRun';

export const WORKFLOW_STEP_KINDS = ['activity', 'sleep', 'signal'] as const;
export type WorkflowStepKind = (typeof WORKFLOW_STEP_KINDS)[number];

/**
 * What a step of a run produced, as the embedded runner records it:
 * - activity: `{ value }` (its result), or `{ errorName }` with the message in `error` when it
 *   failed after all retries;
 * - sleep: `{ wakeAt }` (epoch ms), written when the timer starts;
 * - signal: `{ deadline }` (epoch ms or null) written when the wait starts, then
 *   `{ deadline, received: true, payload }` or `{ deadline, timedOut: true }`.
 */
export type WorkflowStepOutcome =
  | { value?: unknown }
  | { errorName: string }
  | { wakeAt: number }
  | { deadline: number | null; received?: true; payload?: unknown; timedOut?: true };

/**
 * The journal of a run: the n-th call a flow made to its context (activity, sleep, signal wait) and
 * its outcome. Replaying a flow returns recorded outcomes instead of doing the work again.
 */
@Entity({ tableName: 'workflow_steps' })
export class WorkflowStep {
  [PrimaryKeyProp]?: ['run', 'seq'];

  @ManyToOne(() => WorkflowRun, { primary: true, fieldName: 'workflow_id', deleteRule: 'cascade' })
  run!: WorkflowRun;

  /** 1, 2, 3... in the order the flow made its calls. */
  @PrimaryKey({ type: 'integer' })
  seq!: number;

  @Enum({ items: () => WORKFLOW_STEP_KINDS })
  kind!: WorkflowStepKind;

  /** Activity or signal name; `sleep` for timers. */
  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'json', nullable: true })
  outcome?: WorkflowStepOutcome | null;

  /** Message of the error of an activity that failed after all its retries; replay rethrows it. */
  @Property({ type: 'text', nullable: true })
  error?: string | null;

  /** Null while a sleep or signal wait is still pending. Replay advances the flow clock to it. */
  @Property({ type: 'datetime', nullable: true })
  completedAt?: Date | null;

  /**
   * 0, 1, 2... in the order the steps of the run completed. Replay hands recorded outcomes to the
   * flow in this order, so concurrent calls (Promise.all) resume exactly as they first ran.
   */
  @Property({ type: 'integer', nullable: true })
  completionOrder?: (number & Opt) | null;
}
