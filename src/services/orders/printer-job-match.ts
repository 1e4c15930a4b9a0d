import { QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderLine } from '../../db/entities';
import { ACROSS_TENANTS } from '../../db/tenant-filter';
import { NotFoundError } from '../../domain/errors';
import { isFinalOrderStatus } from '../../domain/order-status';

/** The key a job is sent under (PrintJob.jobKey): stable per order line, so a resent job is one job. */
export function printJobKeyOf(line: { order: { id: string }; project: { id: string } }): string {
  return `${line.order.id}:${line.project.id}`;
}

/** What a printer event names: its job id, and the job as we sent it when the printer echoes it. */
export interface PrinterEventJob {
  jobId: string;
  jobKey?: string;
  orderId?: string;
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
 * Crosses tenants: a printer serves every client; the caller scopes to the line found.
 */
export async function lineOfPrinterEvent(em: EntityManager, psp: string, event: PrinterEventJob): Promise<{ line: OrderLine; ignore: boolean }> {
  const sent = await em.find(
    OrderLine,
    { psp, printerJobId: event.jobId },
    {
      populate: ['order'],
      // Lines sent before the time was recorded count as the oldest.
      orderBy: [{ printerJobSentAt: QueryOrder.DESC_NULLS_LAST }, { order: { createdAt: QueryOrder.DESC } }],
      ...ACROSS_TENANTS,
    },
  );
  const named = sent.filter((line) => (event.jobKey === undefined || printJobKeyOf(line) === event.jobKey) && (event.orderId === undefined || line.order.orderId === event.orderId));
  const line = named[0];
  if (!line) {
    const path = sent.length > 0 ? (event.jobKey !== undefined ? 'jobKey' : 'orderId') : 'jobId';
    throw new NotFoundError(`print job of ${psp}`, event.jobKey ?? event.orderId ?? event.jobId, path);
  }
  const superseded = line !== sent[0];
  return { line, ignore: superseded && isFinalOrderStatus(line.status) };
}
