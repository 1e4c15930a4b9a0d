import type { Connection, Transaction } from '@mikro-orm/core';
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
export async function recordStatusChange(
  em: EntityManager,
  tenant: StatusEventOwner,
  change: StatusChange,
): Promise<StatusEventMessage> {
  if (!em.isInTransaction()) throw new Error('recordStatusChange must run inside a transaction');
  // Write the caller's pending changes first: every writer then takes row locks before the
  // subject's advisory lock, in the same order, so two writers can never deadlock.
  await em.flush();
  return appendStatusEvent(em.getConnection(), em.getTransactionContext()!, tenant, change);
}

/**
 * `recordStatusChange` for a writer without entities: `trx` is its open transaction, in which it
 * has already taken its row locks. Two statements, no entity: every status change of the service
 * goes through here.
 */
export async function appendStatusEvent(
  connection: Connection,
  trx: Transaction,
  tenant: StatusEventOwner,
  change: StatusChange,
): Promise<StatusEventMessage> {
  // Serialises writers of one subject so sequences are gap-free and never collide. A statement of
  // its own: a statement's snapshot is taken before it runs, so the next sequence must be read
  // by a later statement than the one that waits for the lock.
  await connection.execute(
    'SELECT pg_advisory_xact_lock(hashtext(?))',
    [`${change.subjectType}:${change.subjectId}`],
    'run',
    trx,
  );
  const occurredAt = new Date();
  const detail = change.detail ?? {};
  const known = {
    clientId: tenant.clientId,
    env: tenant.env,
    subjectType: change.subjectType,
    subjectId: change.subjectId,
    status: change.status,
    detail,
    occurredAt: occurredAt.toISOString(),
  };
  // The row and its NOTIFY in one round trip; the payload is the message, with the id and sequence
  // only the insert knows.
  const [row] = await connection.execute<{ id: string; sequence: number }[]>(
    `WITH event AS (
       INSERT INTO status_events (client_id, env, subject_type, subject_id, status, sequence, detail, occurred_at)
       SELECT ?, ?, ?, ?, ?, COALESCE(MAX(sequence), 0) + 1, ?, ? FROM status_events WHERE subject_type = ? AND subject_id = ?
       RETURNING id, sequence)
     SELECT id, sequence, pg_notify(?, (?::jsonb || jsonb_build_object('id', id::text, 'sequence', sequence))::text) FROM event`,
    [
      tenant.clientId,
      tenant.env,
      change.subjectType,
      change.subjectId,
      change.status,
      JSON.stringify(detail),
      occurredAt,
      change.subjectType,
      change.subjectId,
      STATUS_EVENTS_CHANNEL,
      JSON.stringify(known),
    ],
    'all',
    trx,
  );
  return { id: String(row.id), ...known, sequence: Number(row.sequence) };
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
    {
      subjectType: subject.subjectType,
      subjectId: subject.subjectId,
      sequence: { $gt: afterSequence, ...(beforeSequence ? { $lt: beforeSequence } : {}) },
    },
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
