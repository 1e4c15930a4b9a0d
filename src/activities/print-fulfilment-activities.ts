import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FileStore } from '../storage/file-store';
import type { PrinterRegistry } from '../printers/printer-registry';
import { isFinalOrderStatus, type OrderStatus } from '../domain/order-status';
import { BookProduction } from '../services/production/book-production';
import type { Parcel } from '../domain/parcel';
import { emForOrderLine } from '../services/tenancy/row-tenant-scope';
import { failOrderLine } from '../services/orders/order-line-failure';
import { moveOrderLine, orderLineStatus } from '../services/orders/order-line-status';
import { recordFlowFailure } from '../metrics/work-metrics';
import { PRINT_FULFILMENT_FLOW } from '../domain/flows';
import type { Config } from '../config';
import { pendingWithdrawalsOf, recordFailover, routeLine } from '../services/routing/line-routing';
import { holdUntilOf } from '../services/routing/hold-window';

export interface PrintFulfilmentActivityDeps {
  orm: MikroORM;
  files: FileStore;
  printers: PrinterRegistry;
  log: Logger;
  config: Pick<Config, 'durations'>;
}

/**
 * The steps of printing one order line (workflows/print-fulfilment.ts): each finds the line's tenant and
 * calls the book production service (src/services/production) or, for the line's status, the orders service.
 */
export function createPrintFulfilmentActivities({ orm, files, printers, log, config }: PrintFulfilmentActivityDeps) {
  const production = new BookProduction({ files, printers, log });
  /** A fork scoped to the line's tenant. Order lines are never deleted while their flow runs. */
  const emFor = async (lineId: string) => {
    const em = await emForOrderLine(orm, lineId);
    if (!em) throw new Error(`order line ${lineId} does not exist`);
    return em;
  };

  return {
    checkAssets: async (lineId: string) => production.claimBookForOrdering(await emFor(lineId), lineId),
    getLineStatus: async (lineId: string) => orderLineStatus(await emFor(lineId), lineId),
    /** A printer's status (or the sandbox's next step) moves the line; `final`: its production is over. */
    setLineStatus: async (lineId: string, status: OrderStatus, trackingUrl?: string, parcels?: Parcel[]) => {
      const moved = await moveOrderLine(await emFor(lineId), lineId, { status, trackingUrl, parcels });
      return { ...moved, final: isFinalOrderStatus(moved.status) };
    },
    planRender: async (lineId: string) => production.planRender(await emFor(lineId), lineId),
    renderPages: async (lineId: string, from: number, to: number) =>
      production.renderPages(await emFor(lineId), lineId, from, to),
    assemblePrintFiles: async (lineId: string) => production.assemblePrintFiles(await emFor(lineId), lineId),
    /** The end of the order's hold window (ms since the epoch), or null: no hold. */
    holdOf: async (lineId: string) => ({ until: await holdUntilOf(await emFor(lineId), lineId) }),
    /** The printers of the line in turn (routed once, kept), and how long each has to accept. */
    routeLine: async (lineId: string) =>
      routeLine(await emFor(lineId), printers, lineId, config.durations.printerAcceptTimeoutMs),
    submitPrintJob: async (lineId: string, printer: string, timeoutMs: number) =>
      production.submitPrintJob(await emFor(lineId), lineId, printer, timeoutMs),
    recordFailover: async (
      lineId: string,
      failover: { printer: string; next: string | null; reason: string; mayHoldJob: boolean },
    ) => {
      await recordFailover(await emFor(lineId), lineId, failover);
    },
    /** Printers failover left behind that may still hold the job, to withdraw it from. */
    pendingWithdrawals: async (lineId: string) => pendingWithdrawalsOf(await emFor(lineId), lineId),
    withdrawPrintJob: async (lineId: string, printer: string, timeoutMs: number) =>
      production.withdrawPrintJob(await emFor(lineId), lineId, printer, timeoutMs),
    /** Production gave up: the line is `failed processing` with the reason, for the shop and the operator. */
    failLine: async (lineId: string, reason: string) => {
      const failed = await failOrderLine(await emFor(lineId), lineId, reason);
      if (failed.moved) recordFlowFailure(PRINT_FULFILMENT_FLOW.name, 'gave_up');
      return failed;
    },
  };
}

export type PrintFulfilmentActivities = ReturnType<typeof createPrintFulfilmentActivities>;
