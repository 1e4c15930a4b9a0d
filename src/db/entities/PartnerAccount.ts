import { randomUUID } from 'node:crypto';
import { Entity, Enum, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { PRINT_PARTNERS, type PrintPartner } from '../../domain/print-partners';
import { TenantOwned } from './TenantOwned';

/**
 * A shop's account with a print partner in one environment (docs/api.md, Partner accounts): the
 * credentials, sealed like webhook secrets (the service must read them to call the partner; a
 * database dump alone cannot), and the secret token of the account's callback URL, kept as a
 * digest to find the account by and sealed to show the URL again.
 */
@Entity({ tableName: 'partner_accounts' })
@Unique({ properties: ['client', 'env', 'partner'] })
export class PartnerAccount extends TenantOwned {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Enum({ items: () => PRINT_PARTNERS, type: 'string', length: 20 })
  partner!: PrintPartner;

  /** JSON of PartnerCredentials, sealed (services/webhooks/webhook-secret.ts). */
  @Property({ type: 'text' })
  sealedCredentials!: string;

  /** The last characters of the key, shown so the shop can tell which key is set; never the key. */
  @Property({ type: 'string', length: 20 })
  credentialHint!: string;

  /** sha256 (hex) of the callback token: callbacks find their account by it. */
  @Property({ type: 'string', length: 64, unique: true })
  callbackTokenDigest!: string;

  @Property({ type: 'text' })
  sealedCallbackToken!: string;

  /** The shop's shipping level code → the partner's shipping method; null for the defaults. */
  @Property({ type: 'json', nullable: true })
  shippingMethods?: Record<string, string> | null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();
}
