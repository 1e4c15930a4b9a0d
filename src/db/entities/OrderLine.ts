import { randomUUID } from 'node:crypto';
import {
  DecimalType,
  Entity,
  Enum,
  Filter,
  Index,
  ManyToOne,
  type Opt,
  PrimaryKey,
  Property,
  Unique,
} from '@mikro-orm/core';
import { Order } from './Order';
import { Project } from './Project';
import { ORDER_STATUSES, type OrderStatus } from '../../domain/order-status';
import type { PrintWarning } from '../../domain/print-warning';
import type { Parcel } from '../../domain/parcel';
import type { LineRouting } from '../../domain/print-routing';
import { ownedThrough } from '../tenant-filter';

/** One project of an order: its copies, price, print files and fulfilment status. */
@Filter(ownedThrough('order', 'tenant'))
@Entity({ tableName: 'order_lines' })
@Unique({ properties: ['order', 'project'] })
@Index({ properties: ['project'] })
@Index({ properties: ['psp', 'printerJobId'] })
export class OrderLine {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Order, { deleteRule: 'cascade' })
  order!: Order;

  @ManyToOne(() => Project)
  project!: Project;

  @Property({ type: 'smallint' })
  position!: number;

  @Property({ type: 'integer' })
  quantity!: number;

  @Property({ type: new DecimalType('number'), precision: 14, scale: 4 })
  lineItemTotal!: number;

  /** `colorCorrection` and the fields agreed with the operator. */
  @Property({ type: 'json' })
  metadata: Record<string, unknown> & Opt = {};

  /** Product as printed (after the request's product changes). */
  @Property({ type: 'string', length: 100 })
  sku!: string;

  @Property({ type: 'string', length: 50 })
  psp!: string;

  @Property({ type: 'string', length: 300 })
  title!: string;

  @Property({ type: 'string', length: 300, nullable: true })
  coverPreviewKey?: string | null;

  @Enum({ items: () => ORDER_STATUSES, nativeEnumName: 'order_status' })
  status!: OrderStatus;

  @Property({ type: 'datetime' })
  statusChangedAt: Date & Opt = new Date();

  @Property({ type: 'string', length: 200, nullable: true })
  printerJobId?: string | null;

  /**
   * When the printer answered `printerJobId` for this line. A printer may reissue an id after its own
   * restart: an event naming only the id belongs to the latest line sent under it.
   */
  @Property({ type: 'datetime', nullable: true })
  printerJobSentAt?: Date | null;

  /** The printer that holds the line's job (a name of the routing rules: `local`, `http`, `prodigi`, ...), once one accepted it. */
  @Property({ type: 'string', length: 50, nullable: true })
  printer?: string | null;

  /** The printers routing chose for the line and every routing decision since (docs/api.md, Printers and routing). */
  @Property({ type: 'json', nullable: true })
  routing?: LineRouting | null;

  /** Why production gave up on the line (`failed processing` set by us, not by the printer); cleared by a retry. */
  @Property({ type: 'string', length: 500, nullable: true })
  failureReason?: string | null;

  @Property({ type: 'string', length: 2000, nullable: true })
  trackingUrl?: string | null;

  /** The parcels the printer shipped, each with its carrier, tracking number and URL as far as known. */
  @Property({ type: 'json' })
  parcels: Parcel[] & Opt = [];

  /** When the line first went out for delivery. */
  @Property({ type: 'datetime', nullable: true })
  shippedAt?: Date | null;

  /** When the printer reported it delivered (or collected). */
  @Property({ type: 'datetime', nullable: true })
  deliveredAt?: Date | null;

  @Property({ type: 'integer', nullable: true })
  pageCount?: number | null;

  /** The interior PDF (interior.pdf: the book's pages). */
  @Property({ type: 'string', length: 300, nullable: true })
  pdfKey?: string | null;

  /** The cover sheet PDF (cover.pdf: back, spine and front on one page). */
  @Property({ type: 'string', length: 300, nullable: true })
  coverPdfKey?: string | null;

  @Property({ type: 'string', length: 300, nullable: true })
  manifestKey?: string | null;

  @Property({ type: 'json' })
  warnings: PrintWarning[] & Opt = [];
}
