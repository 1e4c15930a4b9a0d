import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderLine } from '../../db/entities';
import { canMoveOrder, isFinalOrderStatus, type OrderStatus } from '../../domain/order-status';
import type { Parcel } from '../../domain/parcel';
import { recordOrderLineStatus } from './order-events';

export interface StatusMove {
  status: OrderStatus;
  trackingUrl?: string;
  /** Parcels as the printer reports them; they replace the line's when given. */
  parcels?: Parcel[];
  /** Why production gave up, with a move to `failed processing` (failOrderLine); any move out of it clears the reason. */
  failureReason?: string;
}

/** Where a line stands, and whether its production is over (the print-fulfilment flow's question). */
export async function orderLineStatus(
  em: EntityManager,
  lineId: string,
): Promise<{ status: OrderStatus; final: boolean }> {
  const line = await em.findOneOrFail(OrderLine, { id: lineId });
  return { status: line.status, final: isFinalOrderStatus(line.status) };
}

/**
 * The one place an order line's status changes: under the line's row lock, only along the
 * transition table, with its status event and outbox events in the same transaction. A move the
 * table does not allow (a late or duplicate printer event, a cancel after printing) changes nothing
 * and says so; the same status again with new tracking (a parcel added) records the tracking only.
 */
export async function moveOrderLine(
  em: EntityManager,
  lineId: string,
  move: StatusMove,
): Promise<{ moved: boolean; status: OrderStatus; sequence?: number }> {
  return em.transactional(async (tx) => {
    const line = await tx.findOneOrFail(
      OrderLine,
      { id: lineId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['order', 'project'] },
    );
    const parcels = parcelsOf(line, move);
    if (!canMoveOrder(line.status, move.status)) {
      if (line.status === move.status && parcels && JSON.stringify(parcels) !== JSON.stringify(line.parcels)) {
        tx.assign(line, trackingFields(parcels, move));
        await recordOrderLineStatus(tx, line, 'tracking');
      }
      return { moved: false, status: line.status };
    }
    const now = new Date();
    tx.assign(line, {
      status: move.status,
      statusChangedAt: now,
      ...(parcels ? trackingFields(parcels, move) : {}),
      ...(move.status === 'delivering' && !line.shippedAt ? { shippedAt: now } : {}),
      ...((move.status === 'complete' || move.status === 'collected') && !line.deliveredAt ? { deliveredAt: now } : {}),
      failureReason: move.status === 'failed processing' ? (move.failureReason ?? null) : null,
    });
    const { sequence } = await recordOrderLineStatus(tx, line);
    return { moved: true, status: line.status, sequence };
  });
}

/** The parcels after a move: the reported ones, or the line's with a reported bare tracking URL added; undefined when nothing was reported. */
function parcelsOf(line: OrderLine, move: StatusMove): Parcel[] | undefined {
  if (move.parcels && move.parcels.length > 0) return move.parcels;
  if (!move.trackingUrl) return undefined;
  if (line.parcels.some((p) => p.trackingUrl === move.trackingUrl)) return line.parcels;
  return [...line.parcels, { trackingUrl: move.trackingUrl }];
}

/** `trackingUrl` stays the first parcel's URL (project/status and order history show one URL). */
function trackingFields(parcels: Parcel[], move: StatusMove) {
  return { parcels, trackingUrl: parcels.find((p) => p.trackingUrl)?.trackingUrl ?? move.trackingUrl ?? null };
}
