import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { IdempotencyRecord } from '../../db/entities';
import { ConflictError, ValidationError } from '../../domain/errors';
import type { RequestContext } from '../context';

/** `Idempotency-Key` values: visible ASCII, as HTTP header values are safely. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A claimed key whose request never answered (the process died mid-request) is free again after
 * this long; shorter than any retry policy that would give up, longer than any request runs.
 */
const ABANDONED_AFTER_MS = 2 * 60_000;

/** What to do with a request that carries a key. */
export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; contentType: string; body: string };

/**
 * docs/api.md, Idempotency: the first request with a key claims it by inserting its row (the
 * unique (client, env, key) constraint makes two concurrent claims one winner and one 409), runs,
 * and stores its answer; a retry with the same key and the same request gets that answer again
 * without running; the same key with another request is a 409. Keys expire after the retention.
 */
export class IdempotencyStore {
  constructor(private readonly retentionMs: number) {}

  /**
   * `requestHash` identifies the request (method, route, body), so a reused key is noticed;
   * `field` names the key as the client sent it (a header, or GraphQL's argument).
   */
  async claim(
    ctx: RequestContext,
    key: string,
    requestHash: string,
    field = 'Idempotency-Key',
  ): Promise<IdempotencyClaim> {
    if (!KEY.test(key))
      throw ValidationError.field(field, 'must be 1 to 255 visible ASCII characters', 'INVALID_IDEMPOTENCY_KEY');
    const now = Date.now();
    // Before the insert: this tenant's expired keys go (so the table holds only the retention's
    // worth), and an abandoned claim of this key, so the key is free.
    await ctx.em.nativeDelete(IdempotencyRecord, {
      $or: [
        { expiresAt: { $lt: new Date(now) } },
        { key, status: null, createdAt: { $lt: new Date(now - ABANDONED_AFTER_MS) } },
      ],
    });
    try {
      await ctx.em.insert(IdempotencyRecord, {
        client: ctx.tenant.clientId,
        env: ctx.tenant.env,
        key,
        requestHash,
        createdAt: new Date(now),
        expiresAt: new Date(now + this.retentionMs),
      });
      return { kind: 'claimed' };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
    const record = await ctx.em.fork().findOne(IdempotencyRecord, { key });
    if (record && record.requestHash !== requestHash) {
      throw new ConflictError(
        'IDEMPOTENCY_KEY_REUSED',
        `${field} "${key}" was used for another request; a new request needs a new key`,
      );
    }
    if (!record || record.status === null) {
      throw new ConflictError(
        'IDEMPOTENCY_KEY_IN_FLIGHT',
        `a request with ${field} "${key}" is still being handled; retry it later`,
      );
    }
    return {
      kind: 'replay',
      status: record.status,
      contentType: record.contentType ?? 'application/json',
      body: record.body ?? '',
    };
  }

  /** The claimed request answered: keep the answer for retries. */
  async complete(
    ctx: RequestContext,
    key: string,
    answer: { status: number; contentType: string; body: string },
  ): Promise<void> {
    await ctx.em.nativeUpdate(IdempotencyRecord, { key, status: null }, answer);
  }

  /** The claimed request failed on our side (5xx): a retry with the key should run again. */
  async release(ctx: RequestContext, key: string): Promise<void> {
    await ctx.em.nativeDelete(IdempotencyRecord, { key, status: null });
  }
}
