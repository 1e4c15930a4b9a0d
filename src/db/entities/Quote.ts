import { Entity, Index, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';

/** One priced line as the quote answered it; amounts are exact decimal strings in the quote's currency. */
export interface QuotedLine {
  /** Set when the line was quoted from a project (its book's page count at quote time). */
  projectId?: string;
  sku: string;
  pageCount: number;
  quantity: number;
  lineTotal: string;
}

/** The totals of the chosen level, exact decimal strings in the quote's currency. */
export interface QuotedTotals {
  subTotal: string;
  shipping: string;
  coupon: string;
  tax: string;
  grandTotal: string;
}

/**
 * A price promise (`POST /v2/quote`): what an order carrying its id must match until it expires.
 * Names the market by its client-facing id, so a catalogue import does not orphan open quotes.
 */
@Entity({ tableName: 'quotes' })
@Index({ properties: ['client', 'env', 'expiresAt'] })
export class Quote extends TenantOwned {
  /** `q_` and 24 base62 characters. */
  @PrimaryKey({ type: 'string', length: 30 })
  id!: string;

  @Property({ type: 'integer' })
  marketId!: number;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  /** The destination country, ISO 3166-1 alpha-2. */
  @Property({ type: 'string', length: 2 })
  countryIso2!: string;

  /** The level the totals are for; null when no level of the market reaches the destination. */
  @Property({ type: 'string', length: 50, nullable: true })
  shippingLevel?: string | null;

  @Property({ type: 'json' })
  lines!: QuotedLine[];

  @Property({ type: 'json' })
  totals!: QuotedTotals;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
