import { Type, type Static } from 'typebox';
import type { Order, OrderLine } from '../../db/entities';
import type { FileStore } from '../../storage/file-store';
import { displayStatusOf } from '../../domain/order-status';
import { ORDER_ACTIONS } from '../../domain/order-actions';
import type { Parcel } from '../../domain/parcel';
import { printFilesOf, PrintFilesView } from './print-files';
import { openHold, type ActionAvailability } from './order-actions';
import { CLAIM_REASONS } from '../../domain/order-claim';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const ParcelView = Type.Object({
  carrier: Nullable(Type.String()),
  trackingNumber: Nullable(Type.String()),
  trackingUrl: Nullable(Type.String()),
});

const TrackingView = Type.Object({
  parcels: Type.Array(ParcelView),
  shippedAt: Nullable(Type.Integer({ description: 'Unix milliseconds' })),
  deliveredAt: Nullable(Type.Integer({ description: 'Unix milliseconds' })),
});

export const ActionView = Type.Object({
  action: Type.Enum(ORDER_ACTIONS, { type: 'string' }),
  available: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: 'Why not, naming the line and its status' })),
  until: Type.Optional(
    Type.Integer({
      description:
        "Unix milliseconds: while available, until when (a claim: the end of its window; a cancel or change while the shop's hold window is open: the window's end, when the order goes to the printer)",
    }),
  ),
});

/** The claim a remake was made for. */
const ClaimView = Type.Object({
  reason: Type.Enum(CLAIM_REASONS, { type: 'string' }),
  note: Type.Optional(Type.String()),
  photos: Type.Array(Type.String({ description: 'An evidence photo URL, as sent' })),
  projectIds: Type.Array(Type.String()),
  createdAt: Type.Integer({ description: 'Unix milliseconds' }),
});

/** How a line was routed to its printer (docs/api.md, Printers and routing). */
export const LineRoutingView = Type.Object({
  printers: Type.Array(Type.String(), { description: 'The printers chosen for the line, tried in this order' }),
  rule: Nullable(Type.Integer({ description: "The shop's routing rule that chose them (0-based); null: the default" })),
  printer: Nullable(Type.String({ description: 'The printer that holds the job, once one accepted it' })),
  decisions: Type.Array(
    Type.Object({
      decision: Type.String({
        description: 'routed, failed_over, late_acceptance_cancelled or late_acceptance_refused',
      }),
      at: Type.Integer({ description: 'Unix milliseconds' }),
      printer: Type.String(),
      next: Type.Optional(Type.String({ description: 'failed_over: the printer that gets the job now' })),
      reason: Type.Optional(Type.String()),
      jobId: Type.Optional(Type.String({ description: "The late job's id at that printer" })),
    }),
  ),
});
export type LineRoutingView = Static<typeof LineRoutingView>;

/** A line's routing as views show it, or undefined before it was routed. */
export function lineRoutingViewOf(line: Pick<OrderLine, 'routing' | 'printer'>): LineRoutingView | undefined {
  const { routing } = line;
  if (!routing) return undefined;
  return {
    printers: routing.printers,
    rule: routing.rule,
    printer: line.printer ?? null,
    decisions: routing.decisions.map((d) => ({
      decision: d.decision,
      at: Date.parse(d.at),
      printer: d.printer,
      ...(d.next ? { next: d.next } : {}),
      ...(d.reason ? { reason: d.reason } : {}),
      ...(d.jobId ? { jobId: d.jobId } : {}),
    })),
  };
}

/** One order as `GET /v2/order` and `GET /v2/order/list` answer it (docs/api.md, Order look-up). */
export const OrderView = Type.Object({
  orderId: Type.String(),
  createdAt: Type.Integer({ description: 'Unix milliseconds' }),
  currency: Type.String(),
  paymentStatus: Type.String(),
  subTotal: Type.Number(),
  shipping: Type.Object({
    method: Nullable(Type.String({ description: 'The shipping method as the shop sent it' })),
    level: Nullable(
      Type.String({
        description:
          "The code of the market's shipping level the order ships with (standard, express, ...); null where the market has none",
      }),
    ),
    cost: Type.Number(),
  }),
  coupon: Nullable(Type.Object({ code: Type.String(), value: Type.Number() })),
  grandTotal: Type.Number(),
  recipient: Type.Object({
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    telephone: Nullable(Type.String()),
    address: Type.Object({
      line1: Type.String(),
      line2: Type.Optional(Type.String()),
      postcode: Type.String(),
      city: Type.Optional(Type.String()),
      state: Type.Optional(Type.String()),
      company: Type.Optional(Type.String()),
      countryIso2: Type.String(),
      isoCode3: Type.String(),
      country: Type.String({ description: 'English country name' }),
    }),
  }),
  lines: Type.Array(
    Type.Object({
      projectId: Type.String(),
      title: Type.String(),
      sku: Type.String(),
      psp: Type.String(),
      quantity: Type.Integer(),
      lineItemTotal: Type.Number(),
      status: Type.String({ description: 'Order status of the line (docs/api.md, Order line statuses)' }),
      displayStatus: Type.String(),
      statusChangedAt: Type.Integer({ description: 'Unix milliseconds' }),
      sequence: Type.Integer({
        description: "The line's latest status-event sequence, as events and subscriptions carry it",
      }),
      failureReason: Type.Optional(
        Type.String({ description: 'While `failed processing` because production gave up (not the printer): why' }),
      ),
      tracking: Nullable(TrackingView),
      printFiles: Type.Optional(PrintFilesView),
      routing: Type.Optional(LineRoutingView),
    }),
  ),
  holdUntil: Type.Optional(
    Type.Integer({
      description:
        "Unix milliseconds: the end of the shop's hold window, while it is open (the order goes to the printer then)",
    }),
  ),
  actions: Type.Array(ActionView),
  remakeOf: Nullable(
    Type.String({ description: 'A remake: the orderId of the order it remakes (docs/api.md, Claims and remakes)' }),
  ),
  claim: Nullable(ClaimView),
  remakes: Type.Array(Type.String({ description: 'The orderId of a remake of this order, oldest first' })),
});
export type OrderView = Static<typeof OrderView>;

export const OrderListPage = Type.Object({ data: Type.Array(OrderView), cursor: Type.Optional(Type.String()) });
export type OrderListPage = Static<typeof OrderListPage>;

/** What every view of an order line says of it, REST and GraphQL alike. */
export function orderLineSummaryOf(line: OrderLine) {
  return {
    projectId: line.project.id,
    title: line.title,
    sku: line.sku,
    psp: line.psp,
    quantity: line.quantity,
    lineItemTotal: line.lineItemTotal,
    status: line.status,
    displayStatus: displayStatusOf(line.status),
  };
}

/** An action's availability as REST answers it: `until` in Unix milliseconds. */
export function actionViewOf({ until, ...action }: ActionAvailability): Static<typeof ActionView> {
  return { ...action, ...(until ? { until: until.getTime() } : {}) };
}

/** The view of a loaded order (lines and projects populated). */
export function orderViewOf(
  order: Order,
  files: FileStore,
  sequences: Map<string, number>,
  actions: ActionAvailability[],
): OrderView {
  const a = order.shippingAddress;
  const holdUntil = openHold(order.lines.getItems(), order.holdUntil);
  return {
    orderId: order.orderId,
    createdAt: order.createdAt.getTime(),
    currency: order.currency,
    paymentStatus: order.paymentStatus,
    subTotal: order.subTotal,
    shipping: { method: order.shippingMethod ?? null, level: order.shippingLevel ?? null, cost: order.shippingCost },
    coupon: order.couponCode ? { code: order.couponCode, value: order.couponValue } : null,
    grandTotal: order.grandTotal,
    recipient: {
      firstName: order.firstName ?? null,
      lastName: order.lastName ?? null,
      telephone: order.telephone ?? null,
      address: {
        line1: a.line1,
        ...(a.line2 ? { line2: a.line2 } : {}),
        postcode: a.postcode,
        ...(a.city ? { city: a.city } : {}),
        ...(a.state ? { state: a.state } : {}),
        ...(a.company ? { company: a.company } : {}),
        countryIso2: a.isoCode2,
        isoCode3: a.isoCode3,
        country: a.country,
      },
    },
    lines: order.lines.getItems().map((line) => {
      const printFiles = printFilesOf(line, files);
      const hasTracking = line.parcels.length > 0 || !!line.trackingUrl || !!line.shippedAt;
      const routing = lineRoutingViewOf(line);
      return {
        ...orderLineSummaryOf(line),
        statusChangedAt: line.statusChangedAt.getTime(),
        sequence: sequences.get(line.id) ?? 0,
        ...(line.status === 'failed processing' && line.failureReason ? { failureReason: line.failureReason } : {}),
        tracking: hasTracking
          ? {
              parcels: (line.parcels.length > 0
                ? line.parcels
                : [{ trackingUrl: line.trackingUrl ?? undefined } as Parcel]
              ).map((p) => ({
                carrier: p.carrier ?? null,
                trackingNumber: p.trackingNumber ?? null,
                trackingUrl: p.trackingUrl ?? null,
              })),
              shippedAt: line.shippedAt?.getTime() ?? null,
              deliveredAt: line.deliveredAt?.getTime() ?? null,
            }
          : null,
        ...(printFiles ? { printFiles } : {}),
        ...(routing ? { routing } : {}),
      };
    }),
    ...(holdUntil !== undefined ? { holdUntil: holdUntil.getTime() } : {}),
    actions: actions.map(actionViewOf),
    remakeOf: order.remakeOf?.orderId ?? null,
    claim: order.claim
      ? {
          reason: order.claim.reason,
          ...(order.claim.note !== undefined ? { note: order.claim.note } : {}),
          photos: order.claim.photos,
          projectIds: order.claim.projectIds,
          createdAt: Date.parse(order.claim.createdAt),
        }
      : null,
    remakes: order.remakes.getItems().map((remake) => remake.orderId),
  };
}
