import { randomUUID } from 'node:crypto';
import type { Transaction } from '@mikro-orm/core';
import type { AbstractSqlConnection, EntityManager } from '@mikro-orm/postgresql';
import { EndUser } from '../../db/entities';
import type { Tenant } from '../context';
import { ValidationError } from '../../domain/errors';

/** The API's userId pattern (docs/api.md, Generate), as clients read it in messages and the OpenAPI document. */
export const USER_ID_RULE = '[-_]?(?:[A-Za-z0-9]+[-_]?)+';
/**
 * USER_ID_RULE rewritten without nested quantifiers (the original backtracks exponentially on
 * inputs like "aaaa…!"); it accepts the same strings.
 */
const USER_ID = /^[-_]?[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*[-_]?$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
export const MAX_USER_ID = 200;
/** 64 characters, `@`, 255 characters: the longest address EMAIL accepts. */
export const MAX_EMAIL_LENGTH = 320;

function isValidUserId(value: string): boolean {
  return value.length <= MAX_USER_ID && USER_ID.test(value);
}

export function checkUserId(value: string, path: string): string {
  if (!isValidUserId(value)) {
    throw ValidationError.field(
      path,
      `must match ${USER_ID_RULE} and be at most ${MAX_USER_ID} characters`,
      'INVALID_USER_ID',
    );
  }
  return value;
}

export function normaliseEmail(value: string, path: string): string {
  const email = value.trim().toLowerCase();
  if (!EMAIL.test(email) || !email.split('@')[1].includes('.'))
    throw ValidationError.field(path, 'must be an e-mail address', 'INVALID_EMAIL');
  return email;
}

/** How a client names a user in queries: its userId, or the e-mail used at creation (any case). */
export function userKeyOf(user: string, path: string): string {
  const trimmed = user.trim();
  if (!trimmed) throw ValidationError.field(path, 'is required');
  return trimmed.includes('@') ? normaliseEmail(trimmed, path) : checkUserId(trimmed, path);
}

export async function findOrCreateEndUser(
  em: EntityManager,
  tenant: Tenant,
  externalId: string,
  email: string | null,
): Promise<EndUser> {
  // Most users exist already: one read; a new one costs the insert and then its read.
  const existing = await em.findOne(EndUser, { externalId });
  if (existing) return existing;
  const id = await endUserIdFor(em.getConnection(), em.getTransactionContext(), tenant, externalId, email);
  return em.findOneOrFail(EndUser, { id });
}

/** `findOrCreateEndUser` for a plain-SQL writer in transaction `trx`: the user's row id. */
export async function endUserIdFor(
  db: AbstractSqlConnection,
  trx: Transaction | undefined,
  tenant: Tenant,
  externalId: string,
  email: string | null,
): Promise<string> {
  // Insert-or-ignore keeps two concurrent first projects of one user from colliding. On a
  // conflict the insert waited for the other row to commit, so the next statement sees it.
  const [inserted] = await db.execute<{ id: string }[]>(
    `INSERT INTO end_users (id, client_id, env, external_id, email) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (client_id, env, external_id) DO NOTHING RETURNING id`,
    [randomUUID(), tenant.clientId, tenant.env, externalId, email],
    'all',
    trx,
  );
  if (inserted) return inserted.id;
  const [existing] = await db.execute<{ id: string }[]>(
    'SELECT id FROM end_users WHERE client_id = ? AND env = ? AND external_id = ?',
    [tenant.clientId, tenant.env, externalId],
    'all',
    trx,
  );
  return existing.id;
}

/** `em` is tenant-scoped: the same userId of another client or environment is another user. */
export async function findEndUser(em: EntityManager, externalId: string): Promise<EndUser | null> {
  return em.findOne(EndUser, { externalId });
}
