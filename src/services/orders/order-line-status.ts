import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderLine } from '../../db/entities';
import { canMoveOrder, type OrderStatus } from '../../domain/order-status';
import { recordOrderLineStatus } from './order-events';

export interface StatusMove {
  status: OrderStatus;
  trackingUrl?: string;
}

/**
 * The one place an order line's status changes: under the line's row lock, only along the
 * transition table, with its status event in the same transaction. A move the table does not
 * allow (a late or duplicate printer event, a cancel after printing) changes nothing and says so.
 */
export async function moveOrderLine(em: EntityManager, lineId: string, move: StatusMove): Promise<{ moved: boolean; status: OrderStatus }> {
  return em.transactional(async (tx) => {
    const line = await tx.findOneOrFail(OrderLine, { id: lineId }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['order', 'project'] });
    if (!canMoveOrder(line.status, move.status)) return { moved: false, status: line.status };
    tx.assign(line, { status: move.status, statusChangedAt: new Date(), ...(move.trackingUrl ? { trackingUrl: move.trackingUrl } : {}) });
    await recordOrderLineStatus(tx, line);
    return { moved: true, status: line.status };
  });
}

