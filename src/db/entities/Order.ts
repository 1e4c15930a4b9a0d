import { randomUUID } from 'node:crypto';
import {
  Collection,
  DecimalType,
  Entity,
  Index,
  ManyToOne,
  OneToMany,
  type Opt,
  PrimaryKey,
  Property,
  Unique,
} from '@mikro-orm/core';
import type { OrderClaim } from '../../domain/order-claim';
import { Market } from './Market';
import { OrderLine } from './OrderLine';
import { TenantOwned } from './TenantOwned';

export interface ShippingAddress {
  line1: string;
  line2?: string;
  postcode: string;
  city?: string;
  state?: string;
  company?: string;
  /** ISO 3166-1 alpha-2, as sent. */
  isoCode2: string;
  isoCode3: string;
  /** English country name. */
  country: string;
}

/** Something about an order the service decided for the client, recorded so the shop can see it (GraphQL, dashboard). */
export interface OrderWarning {
  /** Stable code, e.g. `UNKNOWN_SHIPPING_METHOD`. */
  code: string;
  message: string;
}

/** A paid order placed by `POST /v2/print`: one line per project, printed and shipped together. */
@Entity({ tableName: 'orders' })
@Unique({ properties: ['client', 'env', 'orderId'] })
@Index({ properties: ['client', 'env', 'email', 'createdAt', 'id'] })
@Index({ properties: ['remakeOf'] })
export class Order extends TenantOwned {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  /** The caller's order id: the idempotency key of `/v2/print`. */
  @Property({ type: 'string', length: 200 })
  orderId!: string;

  /** SHA-256 of the canonical request: the same orderId with another payload is a conflict. */
  @Property({ type: 'string', length: 64 })
  requestDigest!: string;

  @ManyToOne(() => Market)
  market!: Market;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  /** The owner's e-mail when the projects were made with one: what order history is queried by. */
  @Property({ type: 'string', length: 320, nullable: true })
  email?: string | null;

  @Property({ type: 'string', length: 200, nullable: true })
  firstName?: string | null;

  @Property({ type: 'string', length: 200, nullable: true })
  lastName?: string | null;

  @Property({ type: 'string', length: 50, nullable: true })
  telephone?: string | null;

  @Property({ type: 'json' })
  shippingAddress!: ShippingAddress;

  @Property({ type: new DecimalType('number'), precision: 14, scale: 4 })
  subTotal!: number;

  @Property({ type: new DecimalType('number'), precision: 14, scale: 4 })
  shippingCost: number & Opt = 0;

  @Property({ type: 'string', length: 100, nullable: true })
  shippingMethod?: string | null;

  /** The code of the market's shipping level the order ships with (matched from `shippingMethod`); null where the market has none. */
  @Property({ type: 'string', length: 50, nullable: true })
  shippingLevel?: string | null;

  /** The quote the order was checked against, when it named one. */
  @Property({ type: 'string', length: 30, nullable: true })
  quoteId?: string | null;

  @Property({ type: 'json', defaultRaw: `'[]'` })
  warnings: OrderWarning[] & Opt = [];

  @Property({ type: 'string', length: 100, nullable: true })
  couponCode?: string | null;

  @Property({ type: new DecimalType('number'), precision: 14, scale: 4 })
  couponValue: number & Opt = 0;

  @Property({ type: new DecimalType('number'), precision: 14, scale: 4 })
  grandTotal!: number;

  @Property({ type: 'string', length: 100, nullable: true })
  paymentMethod?: string | null;

  @Property({ type: 'string', length: 200, nullable: true })
  paymentReference?: string | null;

  /** Shown as `orderStatus` in order history. */
  @Property({ type: 'string', length: 50 })
  paymentStatus: string & Opt = 'Payment Complete';

  /** The `{message}` answered the first time, answered again for a repeated request. */
  @Property({ type: 'text' })
  confirmation!: string;

  /** A remake: the order it remakes (claims and remakes, docs/api.md). */
  @ManyToOne(() => Order, { nullable: true, deleteRule: 'set null' })
  remakeOf?: Order | null;

  /** A remake: the claim it was made for. */
  @Property({ type: 'json', nullable: true })
  claim?: OrderClaim | null;

  /** The remakes of this order, oldest first. */
  @OneToMany(
    () => Order,
    (order) => order.remakeOf,
    { orderBy: { createdAt: 'asc' } },
  )
  remakes = new Collection<Order>(this);

  @OneToMany(
    () => OrderLine,
    (line) => line.order,
    { orderBy: { position: 'asc' } },
  )
  lines = new Collection<OrderLine>(this);

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  /**
   * The end of the shop's hold window (set at payment): until then no line goes to the printer, and
   * cancel and recipient or shipping changes are free. Null: no hold.
   */
  @Property({ type: 'datetime', nullable: true })
  holdUntil?: Date | null;
}
