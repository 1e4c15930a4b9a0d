import { randomUUID } from 'node:crypto';
import { Entity, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** A tenant: a shop or app integrating the service. Everything else hangs off a client. */
@Entity({ tableName: 'clients' })
export class Client {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @Property({ type: 'string', length: 200 })
  name!: string;

  /** Base URL prepended to catalogue image paths; null means the service's own asset URL. */
  @Property({ type: 'string', length: 500, nullable: true })
  catalogueBaseUrl?: string | null;

  @Property({ type: 'boolean' })
  pricesIncludeTax: boolean & Opt = true;

  /**
   * Origins of the client's shops (`https://shop.example`) that may frame the editor (its CSP
   * `frame-ancestors`); empty: none may (src/services/clients/shop-origins.ts).
   */
  @Property({ type: 'json', defaultRaw: `'[]'` })
  shopOrigins: string[] & Opt = [];

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
