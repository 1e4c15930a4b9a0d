import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderLine } from '../../db/entities';
import { ACROSS_TENANTS } from '../../db/tenant-filter';
import { ConflictError, NotFoundError } from '../../domain/errors';
import {
  canMoveOrder,
  isFinalOrderStatus,
  ORDER_STATUS_RANK,
  type OrderStatus,
  type PrinterEventStatus,
} from '../../domain/order-status';

/** The key a job is sent under (PrintJob.jobKey): stable per order line, so a resent job is one job. */
export function printJobKeyOf(line: { order: { id: string }; project: { id: string } }): string {
  return `${line.order.id}:${line.project.id}`;
}

/** What a printer event names: its job id, and the job as we sent it when the printer echoes it. */
export interface PrinterEventJob {
  jobId: string;
  jobKey?: string;
  orderId?: string;
  status: PrinterEventStatus;
}

/**
 * The order line a printer event is about, or `ignore` when the event is about an older job whose
 * line has ended. A printer's job ids are unique only until the printer reissues them (after its
 * own restart, say), so the id alone does not name one job for ever:
 * - an event that echoes our `jobKey` or the shop's `orderId` is about the line it names among the
 *   lines sent to this printer under that id;
 * - an event that names only the id is about the latest line sent under it: an older line never
 *   takes another job's events.
 * An event that still lands on an older line (named by its key) while a newer job holds the id, and
 * that line has ended, changes nothing: it cannot be told from the newer job's.
 * A printer may report a job before its answer to our request reached us, so before the line holds
 * the id: an id-only event that would take the line it names back (an earlier status the table does
 * not allow), while a job to this printer is still being sent, may be that job's. It is refused as a conflict, which the printer retries (as it
 * retries a 404 for an id not recorded yet) instead of it being lost on the older line.
 * Crosses tenants: a printer serves every client; the caller scopes to the line found.
 */
export async function lineOfPrinterEvent(
  em: EntityManager,
  psp: string,
  event: PrinterEventJob,
): Promise<{ line: OrderLine; ignore: boolean }> {
  const found = await em.find(OrderLine, { psp, printerJobId: event.jobId }, ACROSS_TENANTS);
  // Their orders loaded by a query of their own: `populate` runs its query under the tenant filter, which the
  // unscoped EntityManager of a printer event has no tenant for.
  await em.find(Order, { id: { $in: found.map((line) => line.order.id) } }, ACROSS_TENANTS);
  // Latest sent first; lines sent before the time was recorded count as the oldest, by their order's age.
  // (Sorted here: ordering the query by the order's column joins it, and the join hydrated a partial order.)
  const sent = found.sort(
    (a, b) => sentTime(b) - sentTime(a) || b.order.createdAt.getTime() - a.order.createdAt.getTime(),
  );
  const named = sent.filter(
    (line) =>
      (event.jobKey === undefined || printJobKeyOf(line) === event.jobKey) &&
      (event.orderId === undefined || line.order.orderId === event.orderId),
  );
  const line = named[0];
  if (!line) {
    const path = sent.length > 0 ? (event.jobKey !== undefined ? 'jobKey' : 'orderId') : 'jobId';
    throw new NotFoundError(`print job of ${psp}`, event.jobKey ?? event.orderId ?? event.jobId, path);
  }
  const superseded = line !== sent[0];
  const idOnly = event.jobKey === undefined && event.orderId === undefined;
  if (idOnly && isBehind(line.status, event.status) && (await jobBeingSent(em, psp)))
    throw new ConflictError(
      'PRINT_JOB_BEING_SENT',
      `jobId: ${event.jobId} is the id of an earlier job, and a job to ${psp} is being sent: the event may be that job's; retry it, or name the job with jobKey`,
    );
  return { line, ignore: superseded && isFinalOrderStatus(line.status) };
}

/** A status before the line's that the table does not allow from it: a repeat (new tracking, say) is not behind. */
function isBehind(line: OrderStatus, event: PrinterEventStatus): boolean {
  return ORDER_STATUS_RANK[event] < ORDER_STATUS_RANK[line] && !canMoveOrder(line, event);
}

async function jobBeingSent(em: EntityManager, psp: string): Promise<boolean> {
  return (await em.count(OrderLine, { psp, status: 'sending printjob' }, ACROSS_TENANTS)) > 0;
}

function sentTime(line: OrderLine): number {
  return line.printerJobSentAt?.getTime() ?? -Infinity;
}
