import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Order, OrderLine } from '../../db/entities';
import { ConflictError } from '../../domain/errors';
import {
  canMoveOrder,
  isBeforePrintJob,
  isFinalOrderStatus,
  ORDER_STATUS_RANK,
  PRINTER_HELD_STATUSES,
  type OrderStatus,
} from '../../domain/order-status';
import type { OrderAction } from '../../domain/order-actions';
import { ORDER_SUBJECT, orderLineSubjectId } from '../../domain/status-subjects';
import { claimOf, type ClaimContext } from './claim-availability';

/** Whether an action can be taken now and, when not, why. */
export interface ActionAvailability {
  action: OrderAction;
  available: boolean;
  reason?: string;
  /**
   * While available, until when: a claim, its window's end; a cancel or change while the shop's hold
   * window is open, the window's end (the job goes to the printer then).
   */
  until?: Date;
}

type LineState = Pick<OrderLine, 'status'> & { project: { id: string } };

/** Why one line cannot be cancelled now, or null when it can (or already is cancelled). */
export function cancelBlocker(line: LineState): string | null {
  const { status } = line;
  if (status === 'cancelled') return null;
  const where = `project ${line.project.id} is "${status}"`;
  if (status === 'sending printjob')
    return `${where}: its print job is being sent to the printer; ask again in a moment`;
  if (canMoveOrder(status, 'cancelled')) return null;
  if (isFinalOrderStatus(status)) return `${where}: the line has ended`;
  if (ORDER_STATUS_RANK[status] >= ORDER_STATUS_RANK.printing) return `${where}: the printer has started production`;
  return `${where}: the order-status table does not allow a cancel from it`;
}

/** Why a line's recipient or shipping cannot change now, or null when it can. */
function changeBlocker(line: LineState, what: string): string | null {
  if (isBeforePrintJob(line.status)) return null;
  return `project ${line.project.id} is "${line.status}": the print job ${line.status === 'sending printjob' ? 'is being sent' : 'has gone'} to the printer with the ${what}`;
}

/** The lines an action touches: every line but those that ended for another reason (a change leaves them alone). */
function openLines<T extends LineState>(lines: T[]): T[] {
  return lines.filter((l) => !isFinalOrderStatus(l.status));
}

/** Each action's availability for these lines, in ORDER_ACTIONS order. */
export function availabilityOf(lines: OrderLine[], claim: ClaimContext, holdUntil?: Date | null): ActionAvailability[] {
  const claimed = claimOf(lines, claim);
  return [
    ...changeAvailability(lines, openHold(lines, holdUntil, claim.now.getTime())),
    'reason' in claimed
      ? { action: 'claim', available: false, reason: claimed.reason }
      : { action: 'claim', available: true, until: claimed.until },
  ];
}

/**
 * Whether the order can still be cancelled or changed (the actions before the printer has the book);
 * while the order's hold window is open, each available one says until when (`hold`).
 */
function changeAvailability(lines: LineState[], hold?: Date): ActionAvailability[] {
  const cancelNeeded = lines.filter((l) => l.status !== 'cancelled');
  const cancelReason =
    cancelNeeded.length === 0
      ? 'the order is already cancelled'
      : cancelNeeded.map(cancelBlocker).find((r) => r !== null);
  const open = openLines(lines);
  const change = (what: string) =>
    open.length === 0
      ? 'no line of the order is still open'
      : open.map((l) => changeBlocker(l, what)).find((r) => r !== null);
  const entry = (action: OrderAction, reason: string | null | undefined): ActionAvailability =>
    reason
      ? { action, available: false, reason }
      : { action, available: true, ...(hold !== undefined ? { until: hold } : {}) };
  return [
    entry('cancel', cancelReason),
    entry('update-recipient', change('recipient')),
    entry('update-shipping', change('shipping method')),
  ];
}

/** The end of the order's hold window while it is open and a line still waits for it. */
export function openHold(lines: LineState[], holdUntil: Date | null | undefined, now = Date.now()): Date | undefined {
  if (!holdUntil || holdUntil.getTime() <= now) return undefined;
  return lines.some((l) => isBeforePrintJob(l.status) && !isFinalOrderStatus(l.status)) ? holdUntil : undefined;
}

/** 409 ACTION_NOT_AVAILABLE naming the action and the line's status. */
export function actionNotAvailable(action: OrderAction, orderId: string, reason: string): ConflictError {
  return new ConflictError('ACTION_NOT_AVAILABLE', `${action} is not available for order ${orderId}: ${reason}`);
}

/** Refuses a cancel or change of these lines with the first reason, changing nothing. */
export function assertAvailable(action: Exclude<OrderAction, 'claim'>, orderId: string, lines: LineState[]): void {
  const entry = changeAvailability(lines).find((a) => a.action === action)!;
  if (!entry.available) throw actionNotAvailable(action, orderId, entry.reason!);
}

/** Cancelling these lines must first reach the printer, which holds their job. */
export function heldByPrinter(line: LineState & Pick<OrderLine, 'printerJobId'>): boolean {
  return (PRINTER_HELD_STATUSES as readonly OrderStatus[]).includes(line.status) && !!line.printerJobId;
}

/** An order's lines under their row locks, in line order: what every action's transaction takes first. */
export async function lockLines(tx: EntityManager, order: Order): Promise<OrderLine[]> {
  return tx.find(
    OrderLine,
    { order },
    { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { position: 'asc' }, populate: ['order', 'project'] },
  );
}

/** The latest status-event sequence of each line (what the order's events carry per line). */
export async function currentSequences(
  em: EntityManager,
  order: Order,
  lines: OrderLine[],
): Promise<Map<string, number>> {
  const subjects = lines.map((l) => orderLineSubjectId(order.orderId, l.project.id));
  if (subjects.length === 0) return new Map();
  const rows = await em.getConnection().execute<{ subject_id: string; sequence: number }[]>(
    `SELECT subject_id, MAX(sequence) AS sequence FROM status_events
      WHERE client_id = ? AND env = ? AND subject_type = ? AND subject_id IN (?) GROUP BY subject_id`,
    [order.client.id, order.env, ORDER_SUBJECT, subjects],
    'all',
    em.isInTransaction() ? em.getTransactionContext() : undefined,
  );
  const bySubject = new Map(rows.map((r) => [r.subject_id, Number(r.sequence)]));
  return new Map(lines.map((l) => [l.id, bySubject.get(orderLineSubjectId(order.orderId, l.project.id)) ?? 0]));
}
