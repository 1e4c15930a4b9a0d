import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfo, PhotoInput } from './project';
import { ECOMMERCE_STATUSES, ORDER_STATUSES } from '../../domain/order-status';
import { enumOf } from './enum-of';
import { LineRouting } from './print-routing';
import { MAX_BOOK_PAGES, MAX_COPIES, MAX_MONEY } from '../../domain/limits';
import { CLAIM_REASONS } from '../../domain/order-claim';

/** The published bounds (docs/api.md, Limits); Int and Float say nothing of range, so the service checks them, as REST's schema does. */
const COPIES = `copies, 1 to ${MAX_COPIES}`;
const AMOUNT = `0 to ${MAX_MONEY}, in the currency's major units`;

export const EcommerceOrderStatus = enumOf(ECOMMERCE_STATUSES);
registerEnumType(EcommerceOrderStatus, {
  name: 'EcommerceOrderStatus',
  description: 'Statuses the eCommerce side may set',
});

export const ClaimReason = enumOf(CLAIM_REASONS);
registerEnumType(ClaimReason, { name: 'ClaimReason', description: 'Why a delivered book is claimed' });

@ObjectType({ description: 'The claim a remake was made for (docs/api.md, Claims and remakes)' })
export class OrderClaim {
  @Field(() => ClaimReason) reason!: string;
  @Field(() => String, { nullable: true }) note?: string | null;
  @Field(() => [String], { description: 'Evidence photo URLs, as sent' }) photos!: string[];
  @Field(() => [String], { description: 'The projects claimed: the lines of the remake' }) projectIds!: string[];
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
}

@ObjectType()
export class OrderAddress {
  @Field(() => String) line1!: string;
  @Field(() => String, { nullable: true }) line2?: string;
  @Field(() => String) postcode!: string;
  @Field(() => String, { nullable: true }) city?: string;
  @Field(() => String, { nullable: true }) state?: string;
  @Field(() => String, { nullable: true }) company?: string;
  @Field(() => String) isoCode2!: string;
  @Field(() => String) isoCode3!: string;
  @Field(() => String, { description: 'Country name' }) country!: string;
}

@ObjectType()
export class PrintWarning {
  @Field(() => String, { description: 'Page number, or "cover"' }) page!: string;
  @Field(() => String) photoId!: string;
  @Field(() => Int) effectiveDpi!: number;
  @Field(() => String) message!: string;
}

@ObjectType({ description: "Signed URLs of a line's print files, valid until expiresAt; ask again for fresh ones" })
export class PrintFiles {
  @Field(() => String, {
    nullable: true,
    description:
      'cover.pdf: the cover sheet (back, spine, front with wrap and bleed) on one page; null for a line rendered before cover sheets',
  })
  coverPdfUrl?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'A 1200 px wide JPEG of the rendered cover sheet, to show the spread as it prints; null with coverPdfUrl',
  })
  coverPreviewUrl?: string | null;
  @Field(() => String, { description: "interior.pdf: the book's interior pages" }) interiorPdfUrl!: string;
  @Field(() => String, {
    deprecationReason: 'Use interiorPdfUrl and coverPdfUrl',
    description: 'The same as interiorPdfUrl',
  })
  pdfUrl!: string;
  @Field(() => String, { description: 'The job manifest (JSON) naming both PDFs with their sizes and SHA-256' })
  manifestUrl!: string;
  @Field(() => Int, { description: 'Pages printed: the cover plus the interior pages' }) pages!: number;
  @Field(() => Int, { description: 'Unix seconds after which the URLs are refused' }) expiresAt!: number;
}

@ObjectType({ description: 'One shipped parcel; any member may be unknown' })
export class Parcel {
  @Field(() => String, { nullable: true }) carrier?: string | null;
  @Field(() => String, { nullable: true }) trackingNumber?: string | null;
  @Field(() => String, { nullable: true }) trackingUrl?: string | null;
}

@ObjectType({ description: 'Whether an action can be taken now and, when not, why' })
export class OrderActionAvailability {
  @Field(() => String, { description: 'cancel, update-recipient, update-shipping or claim' }) action!: string;
  @Field(() => Boolean) available!: boolean;
  @Field(() => String, { nullable: true, description: 'Why not, naming the line and its status' }) reason?:
    | string
    | null;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description:
      "While available, until when: a claim, the end of its window; a cancel or change while the shop's hold window is open, the window's end (the order goes to the printer then)",
  })
  until?: Date | null;
}

@ObjectType({ description: 'One project of an order and its fulfilment' })
export class OrderLine {
  @Field(() => String) projectId!: string;
  @Field(() => String) title!: string;
  @Field(() => String) sku!: string;
  @Field(() => String) psp!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => Float) lineItemTotal!: number;
  @Field(() => String, { description: `One of the ${ORDER_STATUSES.length} order statuses` }) status!: string;
  @Field(() => String) displayStatus!: string;
  @Field(() => GraphQLDateTimeISO) statusChangedAt!: Date;
  @Field(() => String, {
    nullable: true,
    description: 'While `failed processing` because production gave up (not the printer): why; an operator retries it',
  })
  failureReason?: string | null;
  @Field(() => String, { nullable: true, description: "The first parcel's tracking URL" }) tracking?: string | null;
  @Field(() => [Parcel], { description: 'Carrier, tracking number and URL per parcel' }) parcels!: Parcel[];
  @Field(() => GraphQLDateTimeISO, { nullable: true }) shippedAt?: Date | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) deliveredAt?: Date | null;
  @Field(() => Int, { nullable: true }) pageCount?: number | null;
  @Field(() => [PrintWarning]) warnings!: PrintWarning[];
  @Field(() => PrintFiles, {
    nullable: true,
    description: 'The print files once rendered (sandbox and live); null before',
  })
  printFiles?: PrintFiles | null;
  @Field(() => LineRouting, { nullable: true, description: 'How the line was routed to its printer; null before' })
  routing?: LineRouting | null;
}

@ObjectType({ description: 'Something the service decided for the order, e.g. UNKNOWN_SHIPPING_METHOD' })
export class OrderWarning {
  @Field(() => String) code!: string;
  @Field(() => String) message!: string;
}

@ObjectType()
export class Order {
  @Field(() => ID, { description: "The caller's order id" }) orderId!: string;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String) currency!: string;
  @Field(() => Float) subTotal!: number;
  @Field(() => Float) shippingCost!: number;
  @Field(() => String, { nullable: true, description: 'payment.shipping.method as sent' }) shippingMethod?:
    | string
    | null;
  @Field(() => String, {
    nullable: true,
    description: "the code of the market's shipping level the order ships with; null where the market has none",
  })
  shippingLevel?: string | null;
  @Field(() => String, { nullable: true, description: 'the quote the order was checked against' }) quoteId?:
    | string
    | null;
  @Field(() => [OrderWarning]) warnings!: OrderWarning[];
  @Field(() => String, { nullable: true }) couponCode?: string | null;
  @Field(() => Float) couponValue!: number;
  @Field(() => Float) grandTotal!: number;
  @Field(() => String) paymentStatus!: string;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) telephone?: string | null;
  @Field(() => OrderAddress) shippingAddress!: OrderAddress;
  @Field(() => [OrderActionAvailability], { description: 'The actions and whether each is available now' })
  actions!: OrderActionAvailability[];
  @Field(() => GraphQLDateTimeISO) createdAt!: Date;
  @Field(() => GraphQLDateTimeISO, {
    nullable: true,
    description: "The end of the shop's hold window while it is open: the order goes to the printer then",
  })
  holdUntil?: Date | null;
  @Field(() => [OrderLine]) lines!: OrderLine[];
  @Field(() => String, { nullable: true, description: 'A remake: the orderId of the order it remakes' })
  remakeOf?: string | null;
  @Field(() => OrderClaim, { nullable: true, description: 'A remake: the claim it was made for' })
  claim?: OrderClaim | null;
  @Field(() => [String], { description: 'The orderIds of the remakes of this order, oldest first' })
  remakes!: string[];
}

@ObjectType()
export class OrderEdge {
  @Field(() => String) cursor!: string;
  @Field(() => Order) node!: Order;
}

@ObjectType()
export class OrderConnection {
  @Field(() => [OrderEdge]) edges!: OrderEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType()
export class PrintOrderPayload {
  @Field(() => String) message!: string;
  @Field(() => Order) order!: Order;
}

@InputType()
export class PrintProductInput {
  @Field(() => String, { nullable: true }) psp?: string;
  @Field(() => String, { nullable: true }) sku?: string;
  @Field(() => String, { nullable: true }) marketId?: string;
}

@InputType()
export class PrintProjectInput {
  @Field(() => String) id!: string;
  @Field(() => PrintProductInput, { nullable: true }) product?: PrintProductInput;
  @Field(() => Float, { description: AMOUNT }) lineItemTotal!: number;
  @Field(() => Int, { description: COPIES }) quantity!: number;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: `colorCorrection, pageCount (even, 2 to ${MAX_BOOK_PAGES}), extraPages (0 to ${MAX_BOOK_PAGES}) and agreed fields`,
  })
  metadata?: Record<string, unknown>;
  @Field(() => [PhotoInput], { nullable: true, description: "Replace the project's photos" }) photos?: PhotoInput[];
  @Field(() => String, {
    nullable: true,
    description:
      'A proof of this project (proofProject): the printer gets its files byte for byte; PROOF_STALE when the book changed since',
  })
  proofId?: string;
}

@InputType()
export class CouponInput {
  @Field(() => Float, { description: `${AMOUNT}; at most the line items' subtotal` }) value!: number;
  @Field(() => String) code!: string;
}

@InputType()
export class ShippingInput {
  @Field(() => String, { nullable: true }) method?: string;
  @Field(() => Float, { description: AMOUNT }) cost!: number;
}

@InputType()
export class PaymentInput {
  @Field(() => Float, { description: AMOUNT }) grandTotal!: number;
  @Field(() => CouponInput, { nullable: true }) coupon?: CouponInput;
  @Field(() => String, { nullable: true }) method?: string;
  @Field(() => String, { nullable: true }) reference?: string;
  @Field(() => ShippingInput, { nullable: true }) shipping?: ShippingInput;
}

@InputType()
export class AddressInput {
  @Field(() => String) line1!: string;
  @Field(() => String, { nullable: true }) line2?: string;
  @Field(() => String) postcode!: string;
  @Field(() => String, { nullable: true }) city?: string;
  @Field(() => String, { nullable: true }) state?: string;
  @Field(() => String, { nullable: true }) company?: string;
  @Field(() => String) countryIso2!: string;
}

@InputType()
export class OrderUserInput {
  @Field(() => String, { nullable: true }) firstName?: string;
  @Field(() => String, { nullable: true }) lastName?: string;
  @Field(() => String, { nullable: true }) telephone?: string;
  @Field(() => AddressInput) address!: AddressInput;
}

@InputType()
export class PrintOrderInput {
  @Field(() => String) orderId!: string;
  @Field(() => [PrintProjectInput]) projects!: PrintProjectInput[];
  @Field(() => PaymentInput) payment!: PaymentInput;
  @Field(() => OrderUserInput) user!: OrderUserInput;
  @Field(() => String, {
    nullable: true,
    description: 'a quote the order must match (QUOTE_MISMATCH, QUOTE_EXPIRED); replaces the totals check',
  })
  quoteId?: string;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Placed before payment: lines wait for confirmPayment (waiting, expiring, last call, then abandoned)',
  })
  paymentPending?: boolean;
}

@ObjectType({ description: 'A committed status change of one project of an order' })
export class OrderStatusEvent {
  @Field(() => String) orderId!: string;
  @Field(() => String) projectId!: string;
  @Field(() => String) status!: string;
  @Field(() => String, { nullable: true }) tracking?: string | null;
  @Field(() => Int) sequence!: number;
  @Field(() => GraphQLDateTimeISO) occurredAt!: Date;
}

@InputType()
export class ShippingChoiceInput {
  @Field(() => String, { description: 'The shipping level' }) method!: string;
}

@ObjectType({ description: 'One event as webhooks send it and GET /v2/events answers it' })
export class ClientEvent {
  @Field(() => String, { description: 'evt_…: stable; the webhook-id of its deliveries' }) id!: string;
  @Field(() => String) type!: string;
  @Field(() => GraphQLDateTimeISO) occurredAt!: Date;
  @Field(() => Int, { nullable: true, description: "The order line's status-event sequence (line events)" }) sequence?:
    | number
    | null;
  @Field(() => GraphQLJSONObject) data!: Record<string, unknown>;
}

@ObjectType()
export class ClientEventPage {
  @Field(() => [ClientEvent]) events!: ClientEvent[];
  @Field(() => String, { nullable: true, description: 'Present while more events follow: pass it as after' }) cursor?:
    | string
    | null;
}
