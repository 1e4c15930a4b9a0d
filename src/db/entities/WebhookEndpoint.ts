import { randomUUID } from 'node:crypto';
import { Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';

/** Where a client's events and campaign notifications go, per environment, and the secret that signs them. */
@Entity({ tableName: 'webhook_endpoints' })
@Unique({ properties: ['client', 'env'] })
export class WebhookEndpoint extends TenantOwned {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'string', length: 2000 })
  url!: string;

  /**
   * The `whsec_` secret, sealed with AES-256-GCM under a key derived from the credential pepper
   * (see webhook-secret.ts): the service must read it to sign, a database dump alone cannot.
   */
  @Property({ type: 'text' })
  sealedSecret!: string;

  /**
   * The secret `rotateWebhookSecret` replaced, sealed likewise: it still signs, beside the current
   * one, until `previousSecretExpiresAt` (WEBHOOK_SECRET_OVERLAP), so a receiver mid-deploy verifies.
   */
  @Property({ type: 'text', nullable: true })
  previousSealedSecret?: string | null;

  @Property({ type: 'datetime', nullable: true })
  previousSecretExpiresAt?: Date | null;

  /** The first failed attempt of an event delivery since the last one that succeeded; null while healthy. */
  @Property({ type: 'datetime', nullable: true })
  failingSince?: Date | null;

  /** Set when it failed for WEBHOOK_DISABLE_AFTER: no event is sent to it until the shop enables it again. */
  @Property({ type: 'datetime', nullable: true })
  disabledAt?: Date | null;

  @Property({ type: 'string', length: 500, nullable: true })
  disabledReason?: string | null;

  /** The event types sent to this endpoint; null sends every type (docs/api.md, Events). */
  @Property({ type: 'json', nullable: true })
  eventTypes?: string[] | null;

  /** Tells the first `setWebhook` calls that raced to create it from later ones (webhook-endpoints.ts). */
  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();
}
