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

  /** The event types sent to this endpoint; null sends every type (docs/api.md, Events). */
  @Property({ type: 'json', nullable: true })
  eventTypes?: string[] | null;

  /** Tells the first `setWebhook` calls that raced to create it from later ones (webhook-endpoints.ts). */
  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();
}
