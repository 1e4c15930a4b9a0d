import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderLine, StatusEvent } from '../../db/entities';
import { isFinalOrderStatus, isOrderStatus, type OrderStatus } from '../../domain/order-status';
import { ORDER_SUBJECT, orderLineSubjectId } from '../../domain/status-subjects';
import { recordOrderLineStatus } from './order-events';

/** Where a parked fulfilment leaves its line: the status of a failure the shop can act on. */
const PARKED_LINE_STATUS: OrderStatus = 'failed processing';

/**
 * The fulfilment of line `lineId` was parked by the workflow engine (its recoveries kept ending with
 * their process, src/engine/parked-flows.ts): the line moves to `failed processing` with `reason`, so
 * the shop sees it (status event, `order.line.status_changed` event, dashboard). The move is the
 * operator side's, not the printer's, so it is made from any status that has not ended, outside the
 * transition table; the status it leaves is kept in the event (`parkedFrom`) for
 * `reopenParkedFulfilment`. Idempotent: false when nothing changed.
 */
export async function failParkedFulfilment(em: EntityManager, lineId: string, reason: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const line = await tx.findOne(
      OrderLine,
      { id: lineId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['order', 'project'] },
    );
    if (!line || line.status === PARKED_LINE_STATUS || isFinalOrderStatus(line.status)) return false;
    const parkedFrom = line.status;
    tx.assign(line, { status: PARKED_LINE_STATUS, failureReason: reason, statusChangedAt: new Date() });
    await recordOrderLineStatus(tx, line, 'status', { reason, detail: { parkedFrom } });
    return true;
  });
}

/**
 * Before an operator retries a parked fulfilment (`flow retry`): its line goes back to the status
 * it was parked from, where the resumed flow expects it. Returns that status, or undefined when the
 * line was not parked (or has moved on since: a cancel or refund, which the flow then honours).
 */
export async function reopenParkedFulfilment(em: EntityManager, lineId: string): Promise<OrderStatus | undefined> {
  return em.transactional(async (tx) => {
    const line = await tx.findOne(
      OrderLine,
      { id: lineId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['order', 'project'] },
    );
    if (!line || line.status !== PARKED_LINE_STATUS) return undefined;
    const parking = await tx.findOne(
      StatusEvent,
      {
        subjectType: ORDER_SUBJECT,
        subjectId: orderLineSubjectId(line.order.orderId, line.project.id),
        status: PARKED_LINE_STATUS,
      },
      { orderBy: { sequence: 'desc' } },
    );
    const parkedFrom = parking?.detail.parkedFrom;
    if (!isOrderStatus(parkedFrom)) return undefined;
    tx.assign(line, { status: parkedFrom, failureReason: null, statusChangedAt: new Date() });
    await recordOrderLineStatus(tx, line, 'status', { reason: 'retried by an operator after its flow was parked' });
    return parkedFrom;
  });
}
