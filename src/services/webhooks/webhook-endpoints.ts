import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Client, WebhookEndpoint } from '../../db/entities';
import type { Environment } from '../../domain/environment';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { isHttpUrl } from '../projects/photo-input';
import { isUuid } from '../../domain/ids';
import { generateWebhookSecret } from '../../printers/standard-webhooks';
import { openSecret, sealSecret } from './webhook-secret';
import { redeliverMissedEvents } from './missed-events';
import { isWebhookEvent, WEBHOOK_EVENTS } from '../../domain/webhook-delivery-status';

export interface WebhookTarget {
  clientId: string;
  env: Environment;
}

/** What `set` and `rotate` answer; `secret` only when a new one was issued (it is shown once). */
export interface IssuedWebhook {
  url: string;
  secret: string | null;
}

/**
 * Sets the URL campaign notifications go to. The first time, a signing secret is issued and
 * returned; later calls change only the URL and keep the secret, so deliveries under way stay
 * verifiable (`rotateWebhookSecret` replaces it).
 *
 * First calls that race (a deploy script run twice, retries sent at once) are all first calls: a
 * call that `began` (arrived) before the endpoint was created answers its secret too, whether its
 * insert met the racing one or it read the endpoint once that had committed; its caller could not
 * have had the secret yet. So every caller holds the one secret deliveries are signed with, and
 * none fails on the unique key.
 */
export async function setWebhook(
  em: EntityManager,
  pepper: string,
  target: WebhookTarget,
  url: string,
  began = new Date(),
): Promise<IssuedWebhook> {
  if (!isUuid(target.clientId)) throw new NotFoundError('client', target.clientId, 'client');
  if (typeof url !== 'string' || !isHttpUrl(url) || url.length > 2000)
    throw ValidationError.field('url', 'must be an absolute http(s) URL of at most 2000 characters');
  return em.transactional(async (tx) => {
    if (!(await tx.findOne(Client, { id: target.clientId })))
      throw new NotFoundError('client', target.clientId, 'client');
    const current = await tx.findOne(WebhookEndpoint, { client: target.clientId, env: target.env });
    if (current) return keptSecret(tx, pepper, current, url, began);
    const secret = generateWebhookSecret();
    // ON CONFLICT waits for a racing insert to commit and then inserts nothing: no unique-key error.
    const now = new Date();
    const inserted = await tx
      .createQueryBuilder(WebhookEndpoint)
      .insert({
        id: randomUUID(),
        client: target.clientId,
        env: target.env,
        url,
        sealedSecret: sealSecret(pepper, secret),
        createdAt: now,
        updatedAt: now,
      })
      .onConflict(['client', 'env'])
      .ignore()
      .execute('run');
    if (inserted.affectedRows === 1) return { url, secret };
    // A later statement sees the racing call's committed row (READ COMMITTED).
    return keptSecret(
      tx,
      pepper,
      await tx.findOneOrFail(WebhookEndpoint, { client: target.clientId, env: target.env }, { refresh: true }),
      url,
      began,
    );
  });
}

/** The endpoint gets `url`; its secret is answered only to a call that began before it existed (a racing first call). */
function keptSecret(
  tx: EntityManager,
  pepper: string,
  endpoint: WebhookEndpoint,
  url: string,
  began: Date,
): IssuedWebhook {
  // A new address starts with a clean record: its predecessor's failures are not its own.
  if (endpoint.url !== url) tx.assign(endpoint, { failingSince: null });
  tx.assign(endpoint, { url, updatedAt: new Date() });
  return { url, secret: endpoint.createdAt >= began ? openSecret(pepper, endpoint.sealedSecret) : null };
}

/**
 * The event types the endpoint receives: a list of WEBHOOK_EVENTS, or null for every type (the
 * default). `webhook.test` is sent whenever asked for, whatever the list.
 */
export async function setWebhookEventTypes(
  em: EntityManager,
  target: WebhookTarget,
  types: string[] | null,
): Promise<WebhookEndpoint> {
  if (types !== null) {
    if (!Array.isArray(types) || types.length === 0)
      throw ValidationError.field('types', 'must name at least one event type, or be null for every type');
    for (const [i, type] of types.entries()) {
      if (!isWebhookEvent(type))
        throw ValidationError.field(`types[${i}]`, `must be one of ${WEBHOOK_EVENTS.join(', ')}`);
    }
  }
  if (!isUuid(target.clientId)) throw new NotFoundError('client', target.clientId, 'client');
  return em.transactional(async (tx) => {
    const current = await tx.findOne(WebhookEndpoint, { client: target.clientId, env: target.env });
    if (!current) throw new NotFoundError('webhook of environment', target.env, 'env');
    tx.assign(current, { eventTypes: types === null ? null : [...new Set(types)], updatedAt: new Date() });
    return current;
  });
}

/** The types an endpoint receives, spelled out (every type when it chose none). */
export function eventTypesOf(endpoint: Pick<WebhookEndpoint, 'eventTypes'>): string[] {
  return endpoint.eventTypes ?? [...WEBHOOK_EVENTS];
}

/**
 * Issues a new secret. The one it replaces keeps signing beside it for `overlapMs`
 * (WEBHOOK_SECRET_OVERLAP): every delivery carries both signatures until then, so receivers
 * verify whichever secret they hold while they are redeployed with the new one. A second rotation
 * inside the overlap keeps only the secret it replaces as the previous one.
 */
export async function rotateWebhookSecret(
  em: EntityManager,
  pepper: string,
  target: WebhookTarget,
  overlapMs: number,
): Promise<IssuedWebhook & { previousSecretExpiresAt: Date | null }> {
  if (!isUuid(target.clientId)) throw new NotFoundError('client', target.clientId, 'client');
  return em.transactional(async (tx) => {
    const current = await tx.findOne(WebhookEndpoint, { client: target.clientId, env: target.env });
    if (!current) throw new NotFoundError('webhook of environment', target.env, 'env');
    const secret = generateWebhookSecret();
    const now = new Date();
    const previousSecretExpiresAt = overlapMs > 0 ? new Date(now.getTime() + overlapMs) : null;
    tx.assign(current, {
      sealedSecret: sealSecret(pepper, secret),
      previousSealedSecret: previousSecretExpiresAt ? current.sealedSecret : null,
      previousSecretExpiresAt,
      updatedAt: now,
    });
    return { url: current.url, secret, previousSecretExpiresAt };
  });
}

/**
 * Sends events to a disabled endpoint again (it was disabled for failing, webhook-health.ts). The
 * events recorded meanwhile stay on the catch-up feed (`GET /v2/events`); with `redeliver`, those
 * since its failing began that did not reach it are sent again too (missed-events.ts).
 */
export async function enableWebhook(
  em: EntityManager,
  target: WebhookTarget,
  redeliver = false,
): Promise<WebhookEndpoint> {
  if (!isUuid(target.clientId)) throw new NotFoundError('client', target.clientId, 'client');
  return em.transactional(async (tx) => {
    const current = await tx.findOne(
      WebhookEndpoint,
      { client: target.clientId, env: target.env },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!current) throw new NotFoundError('webhook of environment', target.env, 'env');
    const since = current.failingSince ?? current.disabledAt;
    tx.assign(current, { disabledAt: null, disabledReason: null, failingSince: null, updatedAt: new Date() });
    await tx.flush();
    if (redeliver && since)
      await redeliverMissedEvents(
        tx,
        { clientId: target.clientId, env: target.env, url: current.url, eventTypes: current.eventTypes ?? null },
        since,
      );
    return current;
  });
}

export async function findWebhook(em: EntityManager, target: WebhookTarget): Promise<WebhookEndpoint | null> {
  if (!isUuid(target.clientId)) return null;
  return em.findOne(WebhookEndpoint, { client: target.clientId, env: target.env });
}

/**
 * The secrets that sign this client's deliveries in this environment at `now`: the current one,
 * then the replaced one while its overlap lasts; empty when no webhook was set.
 */
export async function signingSecretsOf(
  em: EntityManager,
  pepper: string,
  target: WebhookTarget,
  now = new Date(),
): Promise<string[]> {
  const endpoint = await findWebhook(em, target);
  if (!endpoint) return [];
  const secrets = [openSecret(pepper, endpoint.sealedSecret)];
  if (endpoint.previousSealedSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now)
    secrets.push(openSecret(pepper, endpoint.previousSealedSecret));
  return secrets;
}
