import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order, OrderLine } from '../../db/entities';
import { recordStatusChange, type StatusEventMessage } from '../../events/status-event-log';
import { ORDER_SUBJECT, orderLineSubjectId } from '../../domain/status-subjects';
import { displayStatusOf } from '../../domain/order-status';
import { recordEvent, type NewEvent } from '../webhooks/webhook-events';

/** What changed on the line: its status (the usual), or only its tracking (a parcel added or corrected). */
export type LineChange = 'status' | 'tracking';

/**
 * Records an order line's current fulfilment status (with its tracking) as a status event, and the
 * events a shop receives for it (docs/api.md, Events): `order.line.status_changed` for a status
 * change, plus `order.line.shipped` when it goes out for delivery or its tracking changes, and
 * `order.line.delivered` when delivered or collected. All in the caller's transaction and with the
 * status event's sequence, so dashboards and webhooks see the same history.
 */
export async function recordOrderLineStatus(
  em: EntityManager,
  line: OrderLine,
  change: LineChange = 'status',
  /** Why the status changed, when it is not the printer's or the shop's doing (a parked fulfilment). */
  why: { reason?: string; detail?: Record<string, unknown> } = {},
): Promise<StatusEventMessage> {
  const { order } = line;
  const owner = { clientId: order.client.id, env: order.env };
  const message = await recordStatusChange(em, owner, {
    subjectType: ORDER_SUBJECT,
    subjectId: orderLineSubjectId(order.orderId, line.project.id),
    status: line.status,
    detail: {
      orderId: order.orderId,
      projectId: line.project.id,
      ...(line.trackingUrl ? { tracking: line.trackingUrl } : {}),
      ...(why.reason ? { reason: why.reason } : {}),
      ...why.detail,
      ...failureOf(line),
    },
  });
  const event = (type: NewEvent['type']): NewEvent => ({
    type,
    orderId: order.orderId,
    projectId: line.project.id,
    sequence: message.sequence,
    data: { orderId: order.orderId, line: lineEventData(line), ...(why.reason ? { reason: why.reason } : {}) },
  });
  if (change === 'status') await recordEvent(em, owner, event('order.line.status_changed'));
  if (line.status === 'delivering') await recordEvent(em, owner, event('order.line.shipped'));
  if (change === 'status' && (line.status === 'complete' || line.status === 'collected'))
    await recordEvent(em, owner, event('order.line.delivered'));
  return message;
}

/** An order line as events carry it. */
function lineEventData(line: OrderLine) {
  return {
    projectId: line.project.id,
    sku: line.sku,
    quantity: line.quantity,
    status: line.status,
    displayStatus: displayStatusOf(line.status),
    tracking: trackingOf(line),
    ...failureOf(line),
  };
}

/** `failureReason` while production has given up on the line (failed processing by us, not by the printer). */
function failureOf(line: Pick<OrderLine, 'status' | 'failureReason'>): { failureReason?: string } {
  return line.status === 'failed processing' && line.failureReason ? { failureReason: line.failureReason } : {};
}

/** A line's tracking, or null before it ships. */
function trackingOf(line: Pick<OrderLine, 'parcels' | 'trackingUrl' | 'shippedAt' | 'deliveredAt'>) {
  if (line.parcels.length === 0 && !line.trackingUrl && !line.shippedAt) return null;
  return {
    parcels: line.parcels.map((p) => ({
      carrier: p.carrier ?? null,
      trackingNumber: p.trackingNumber ?? null,
      trackingUrl: p.trackingUrl ?? null,
    })),
    shippedAt: line.shippedAt?.toISOString() ?? null,
    deliveredAt: line.deliveredAt?.toISOString() ?? null,
  };
}

/** An order-wide event (`order.cancelled`, `order.updated`, a claim's two) with each line's status and sequence. */
export async function recordOrderEvent(
  em: EntityManager,
  order: Order,
  type: 'order.cancelled' | 'order.updated' | 'order.claim.created' | 'order.remake.created',
  lines: { line: OrderLine; sequence: number }[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  await recordEvent(
    em,
    { clientId: order.client.id, env: order.env },
    {
      type,
      orderId: order.orderId,
      data: {
        orderId: order.orderId,
        ...extra,
        lines: lines.map(({ line, sequence }) => ({ ...lineEventData(line), sequence })),
      },
    },
  );
}
