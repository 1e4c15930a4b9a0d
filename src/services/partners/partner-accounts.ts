import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Client, PartnerAccount } from '../../db/entities';
import { ACROSS_TENANTS } from '../../db/tenant-filter';
import type { Environment } from '../../domain/environment';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import {
  isPrintPartner,
  PARTNER_CREDENTIALS,
  PRINT_PARTNERS,
  type PartnerCredentials,
  type PrintPartner,
} from '../../domain/print-partners';
import { openSecret, sealSecret } from '../webhooks/webhook-secret';

/**
 * A shop's partner accounts (docs/api.md, Partner accounts): set, listed and removed per client
 * and environment. Credentials are sealed as webhook secrets are and never answered back: a view
 * shows the last four characters of the key and the account's callback URL, whose token is the
 * secret that lets a partner's callbacks in.
 */

export interface PartnerTarget {
  clientId: string;
  env: Environment;
}

export interface SetPartnerAccountInput {
  partner: string;
  credentials: PartnerCredentials;
  /** The shop's shipping level code → the partner's shipping method; omitted keeps the current mapping, null clears it. */
  shippingMethods?: Record<string, string> | null;
}

export interface PartnerAccountView {
  partner: PrintPartner;
  env: Environment;
  /** `…` and the last four characters of the API key (Lulu: of the client key). */
  credentialHint: string;
  /** Where the partner posts this account's callbacks (Prodigi gets it with each order; Gelato and Lulu: set it in their dashboard). */
  callbackUrl: string;
  shippingMethods: Record<string, string> | null;
  updatedAt: Date;
}

const MAX_CREDENTIAL_LENGTH = 500;
const SHIPPING_CODE = /^[a-z][a-z0-9_-]{0,49}$/;

function callbackPath(partner: PrintPartner, token: string): string {
  return `/v2/printers/${partner}/callbacks/${token}`;
}

function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function partnerOf(value: string, path = 'partner'): PrintPartner {
  if (!isPrintPartner(value)) throw ValidationError.field(path, `must be one of ${PRINT_PARTNERS.join(', ')}`);
  return value;
}

/** The credentials the partner needs, each a printable string; anything else named is refused. */
function checkedCredentials(partner: PrintPartner, credentials: PartnerCredentials): PartnerCredentials {
  const wanted = PARTNER_CREDENTIALS[partner].fields;
  const checked: PartnerCredentials = {};
  for (const [name, value] of Object.entries(credentials ?? {})) {
    if (value === undefined || value === null) continue;
    if (!(wanted as readonly string[]).includes(name))
      throw ValidationError.field(
        `credentials.${name}`,
        `is not a ${partner} credential; ${partner} takes ${wanted.join(', ')}`,
      );
  }
  for (const name of wanted) {
    const value = credentials?.[name];
    if (typeof value !== 'string' || !/^[\x21-\x7e]{8,}$/.test(value) || value.length > MAX_CREDENTIAL_LENGTH)
      throw ValidationError.field(
        `credentials.${name}`,
        `is required for ${partner}: 8 to ${MAX_CREDENTIAL_LENGTH} printable characters without spaces`,
      );
    checked[name] = value;
  }
  return checked;
}

function checkedShippingMethods(value: Record<string, string> | null): Record<string, string> | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length > 20)
    throw ValidationError.field('shippingMethods', 'must map at most 20 shipping level codes to the partner’s methods');
  for (const [code, method] of Object.entries(value)) {
    if (!SHIPPING_CODE.test(code))
      throw ValidationError.field(`shippingMethods.${code}`, 'must be keyed by a shipping level code (a-z, 0-9, _ -)');
    if (typeof method !== 'string' || !/^[A-Za-z0-9_.-]{1,100}$/.test(method))
      throw ValidationError.field(
        `shippingMethods.${code}`,
        'must be the partner’s shipping method (letters, digits, _ . -)',
      );
  }
  return value;
}

function hintOf(partner: PrintPartner, credentials: PartnerCredentials): string {
  const key = partner === 'lulu' ? credentials.clientKey! : credentials.apiKey!;
  return `…${key.slice(-4)}`;
}

/** Sets (or replaces) the account; the callback token is kept across replacements, so a URL set at the partner stays valid. */
export async function setPartnerAccount(
  em: EntityManager,
  pepper: string,
  publicUrl: string,
  target: PartnerTarget,
  input: SetPartnerAccountInput,
): Promise<PartnerAccountView> {
  const partner = partnerOf(input.partner);
  const credentials = checkedCredentials(partner, input.credentials);
  const shippingMethods =
    input.shippingMethods === undefined ? undefined : checkedShippingMethods(input.shippingMethods);
  if (!isUuid(target.clientId)) throw new NotFoundError('client', target.clientId, 'client');
  return em.transactional(async (tx) => {
    if (!(await tx.findOne(Client, { id: target.clientId }, ACROSS_TENANTS)))
      throw new NotFoundError('client', target.clientId, 'client');
    const current = await tx.findOne(
      PartnerAccount,
      { client: target.clientId, env: target.env, partner },
      ACROSS_TENANTS,
    );
    const sealedCredentials = sealSecret(pepper, JSON.stringify(credentials));
    const credentialHint = hintOf(partner, credentials);
    if (current) {
      tx.assign(current, {
        sealedCredentials,
        credentialHint,
        ...(shippingMethods === undefined ? {} : { shippingMethods }),
        updatedAt: new Date(),
      });
      return viewOf(current, pepper, publicUrl);
    }
    const token = randomBytes(24).toString('base64url');
    const account = tx.create(PartnerAccount, {
      id: randomUUID(),
      client: tx.getReference(Client, target.clientId),
      env: target.env,
      partner,
      sealedCredentials,
      credentialHint,
      callbackTokenDigest: tokenDigest(token),
      sealedCallbackToken: sealSecret(pepper, token),
      shippingMethods: shippingMethods ?? null,
    });
    return viewOf(account, pepper, publicUrl);
  });
}

export async function listPartnerAccounts(
  em: EntityManager,
  pepper: string,
  publicUrl: string,
  target: PartnerTarget,
): Promise<PartnerAccountView[]> {
  if (!isUuid(target.clientId)) return [];
  const accounts = await em.find(
    PartnerAccount,
    { client: target.clientId, env: target.env },
    { ...ACROSS_TENANTS, orderBy: { partner: 'asc' } },
  );
  return accounts.map((account) => viewOf(account, pepper, publicUrl));
}

/** Removes the account; its callback URL stops working. Removing none is not found. */
export async function removePartnerAccount(em: EntityManager, target: PartnerTarget, partner: string): Promise<void> {
  const which = partnerOf(partner);
  const removed = isUuid(target.clientId)
    ? await em.nativeDelete(
        PartnerAccount,
        { client: target.clientId, env: target.env, partner: which },
        ACROSS_TENANTS,
      )
    : 0;
  if (removed === 0) throw new NotFoundError(`${which} account of environment`, target.env, 'partner');
}

/** The account a callback URL names (crossing tenants: the token alone says whose it is), or null. */
export async function accountOfCallback(
  em: EntityManager,
  partner: string,
  token: string,
): Promise<PartnerAccount | null> {
  if (!isPrintPartner(partner) || !/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  return em.findOne(PartnerAccount, { partner, callbackTokenDigest: tokenDigest(token) }, ACROSS_TENANTS);
}

export function credentialsOf(account: PartnerAccount, pepper: string): PartnerCredentials {
  return JSON.parse(openSecret(pepper, account.sealedCredentials)) as PartnerCredentials;
}

export function callbackUrlOf(account: PartnerAccount, pepper: string, publicUrl: string): string {
  return `${publicUrl}${callbackPath(account.partner, openSecret(pepper, account.sealedCallbackToken))}`;
}

function viewOf(account: PartnerAccount, pepper: string, publicUrl: string): PartnerAccountView {
  return {
    partner: account.partner,
    env: account.env,
    credentialHint: account.credentialHint,
    callbackUrl: callbackUrlOf(account, pepper, publicUrl),
    shippingMethods: account.shippingMethods ?? null,
    updatedAt: account.updatedAt,
  };
}
