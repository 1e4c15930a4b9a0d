import type { EntityManager } from '@mikro-orm/postgresql';
import { StatusEvent } from '../db/entities';
import type { Environment } from '../domain/environment';

export const STATUS_EVENTS_CHANNEL = 'status_events';

/** What a subscriber receives: one committed status change. */
export interface StatusEventMessage {
  id: string;
  clientId: string;
  env: Environment;
  subjectType: string;
  subjectId: string;
  status: string;
  sequence: number;
  detail: Record<string, unknown>;
  occurredAt: string;
}

/** Whose event it is: subscribers of other clients or of the other environment never hear it. */
export interface StatusEventOwner {
  clientId: string;
  env: Environment;
}

export interface StatusChange {
  subjectType: string;
  subjectId: string;
  status: string;
  detail?: Record<string, unknown>;
}

/**
 * Appends a status change and queues its NOTIFY in the caller's transaction: subscribers hear of
 * it exactly when, and only if, the change commits. Must run inside `em.transactional`.
 */
export async function recordStatusChange(em: EntityManager, tenant: StatusEventOwner, change: StatusChange): Promise<StatusEventMessage> {
  if (!em.isInTransaction()) throw new Error('recordStatusChange must run inside a transaction');
  // Write the caller's pending changes first: every writer then takes row locks before the
  // subject's advisory lock, in the same order, so two writers can never deadlock.
  await em.flush();
  const connection = em.getConnection();
  const ctx = em.getTransactionContext();
  // Serialises writers of one subject so sequences are gap-free and never collide.
  await connection.execute('SELECT pg_advisory_xact_lock(hashtext(?))', [`${change.subjectType}:${change.subjectId}`], 'run', ctx);
  const [{ next }] = await connection.execute<{ next: number }[]>(
    'SELECT COALESCE(MAX(sequence), 0) + 1 AS next FROM status_events WHERE subject_type = ? AND subject_id = ?',
    [change.subjectType, change.subjectId],
    'all',
    ctx,
  );
  const event = em.create(StatusEvent, {
    client: tenant.clientId,
    env: tenant.env,
    subjectType: change.subjectType,
    subjectId: change.subjectId,
    status: change.status,
    sequence: Number(next),
    detail: change.detail ?? {},
  });
  await em.flush();
  const message = messageOf(event, tenant.clientId);
  await connection.execute('SELECT pg_notify(?, ?)', [STATUS_EVENTS_CHANNEL, JSON.stringify(message)], 'run', ctx);
  return message;
}

/**
 * One subject's recorded events with `afterSequence < sequence < beforeSequence`, in sequence
 * order: what a subscriber resuming from its last sequence missed. `em` must carry the tenant
 * filter, so a subject of another client or environment has no events here.
 */
export async function readSubjectEvents(
  em: EntityManager,
  subject: { subjectType: string; subjectId: string },
  afterSequence: number,
  beforeSequence?: number,
): Promise<StatusEventMessage[]> {
  const events = await em.fork().find(
    StatusEvent,
    { subjectType: subject.subjectType, subjectId: subject.subjectId, sequence: { $gt: afterSequence, ...(beforeSequence ? { $lt: beforeSequence } : {}) } },
    { orderBy: { sequence: 'asc' } },
  );
  return events.map((event) => messageOf(event, event.client.id));
}

/** The event as subscribers receive it, live (NOTIFY) or replayed. */
function messageOf(event: StatusEvent, clientId: string): StatusEventMessage {
  return {
    id: event.id,
    clientId,
    env: event.env,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    status: event.status,
    sequence: event.sequence,
    detail: event.detail,
    occurredAt: event.occurredAt.toISOString(),
  };
}
