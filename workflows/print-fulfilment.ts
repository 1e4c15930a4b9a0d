import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { PrintFulfilmentActivities as ProductionActivities } from '../src/activities/print-fulfilment-activities';
import type { ResourceActivities } from '../src/activities/resource-activities';
import { PRINT_FULFILMENT_FLOW, STATUS_UPDATE_SIGNAL, type StatusUpdate } from '../src/domain/flows';
import { UNPAID_TIMER_CHAIN, isAwaitingPayment, type OrderStatus } from '../src/domain/order-status';
import { DATABASE_ACTIVITY_POLICY } from '../src/domain/retry-policies';
import { RESOURCE_UNAVAILABLE_ERROR } from '../src/domain/resource-errors';
import { failureReasonOf, rideOutResourceFaults } from './resource-retry';

const database = DATABASE_ACTIVITY_POLICY;
const render: ActivityOptions = {
  queue: 'renders',
  startToCloseTimeoutMs: 10 * 60_000,
  // A full or unavailable store is ridden out by the flow itself (resource-retry.ts), with durable sleeps.
  retry: {
    maximumAttempts: 5,
    initialIntervalMs: 2_000,
    backoffCoefficient: 2,
    maximumIntervalMs: 60_000,
    nonRetryableErrorTypes: [RESOURCE_UNAVAILABLE_ERROR],
  },
};
const printer: ActivityOptions = {
  startToCloseTimeoutMs: 5 * 60_000,
  retry: {
    maximumAttempts: 0,
    initialIntervalMs: 5_000,
    backoffCoefficient: 2,
    maximumIntervalMs: 10 * 60_000,
    nonRetryableErrorTypes: ['PrinterRejectedJob', RESOURCE_UNAVAILABLE_ERROR],
  },
};

type FulfilmentActivities = ProductionActivities & ResourceActivities;

/** Interior pages per render activity: a retry redoes at most this many pages. */
const PAGES_PER_ACTIVITY = 4;

/**
 * One order line from payment to the customer's door: wait for the book's assets, render the cover
 * sheet and the pages at print resolution, assemble cover.pdf, interior.pdf and the manifest, submit to the printer, then follow the
 * printer's status events (the sandbox printer walks its steps on timers) until a final status.
 * A cancel or refund set meanwhile ends the flow at its next step.
 */
export const printFulfilmentFlow: FlowDefinition<typeof PRINT_FULFILMENT_FLOW, FulfilmentActivities> = {
  contract: PRINT_FULFILMENT_FLOW,
  activityOptions: {
    getLineStatus: database,
    checkAssets: database,
    setLineStatus: database,
    planRender: database,
    renderPages: render,
    assemblePrintFiles: render,
    submitPrintJob: printer,
    failLine: database,
    resourceRetryWindow: database,
  },
  async run(ctx, input) {
    const { activities, sleep, waitForSignal, now } = ctx;
    const { lineId } = input;
    const move = async (status: OrderStatus, trackingUrl?: string, parcels?: StatusUpdate['parcels']) => {
      const result = await activities.setLineStatus(lineId, status, trackingUrl, parcels);
      return result.final ? result.status : undefined;
    };

    // 0. An order placed before payment waits for it, with reminders on the way to abandoned.
    let line = await activities.getLineStatus(lineId);
    for (const next of UNPAID_TIMER_CHAIN.slice(1)) {
      if (line.final || !isAwaitingPayment(line.status)) break;
      await waitForSignal<StatusUpdate>(STATUS_UPDATE_SIGNAL, input.assetsTimeoutMs);
      line = await activities.getLineStatus(lineId);
      if (isAwaitingPayment(line.status)) {
        const ended = await move(next);
        if (ended) return { status: ended };
        line = await activities.getLineStatus(lineId);
      }
    }
    if (line.final) return { status: line.status };

    // 1. The book must be built (photos given with the order are still being fetched).
    let assets = await activities.checkAssets(lineId);
    let deadline = now() + input.assetsTimeoutMs;
    let missing = false;
    let pause = 1_000;
    while (assets.state === 'pending') {
      if (now() >= deadline) {
        if (missing) return { status: (await move('abandoned')) ?? 'abandoned' };
        const ended = await move('files missing');
        if (ended) return { status: ended };
        missing = true;
        deadline = now() + input.assetsTimeoutMs;
      }
      await sleep(Math.min(pause, Math.max(1, deadline - now())));
      pause = Math.min(pause * 2, 5 * 60_000);
      assets = await activities.checkAssets(lineId);
    }
    if (assets.state === 'gone') return { status: (await move('cancelled')) ?? 'cancelled' };

    // 2. Render, assemble, submit. A full or unavailable store is ridden out for
    // RESOURCE_RETRY_WINDOW; a step that fails for good parks the line at `failed processing` with
    // the reason, until an operator retries it (`order retry`: back to `processing`, and this flow
    // goes round again, keeping the pages already rendered) or the shop cancels or refunds it.
    const ride = <T>(call: () => Promise<T>) => rideOutResourceFaults(ctx, activities.resourceRetryWindow, call);
    let submission: Awaited<ReturnType<FulfilmentActivities['submitPrintJob']>>;
    for (;;) {
      try {
        for (const status of ['received', 'processing', 'rendering'] as const) {
          const ended = await move(status);
          if (ended) return { status: ended };
        }
        const { pages, filesReady } = await activities.planRender(lineId);
        // A remake carries the original's print files (the same bytes): nothing to render.
        if (!filesReady) {
          await ride(() => activities.renderPages(lineId, 0, Math.min(PAGES_PER_ACTIVITY - 1, pages)));
          for (let from = PAGES_PER_ACTIVITY; from <= pages; from += PAGES_PER_ACTIVITY) {
            await ride(() => activities.renderPages(lineId, from, Math.min(from + PAGES_PER_ACTIVITY - 1, pages)));
          }
          await ride(() => activities.assemblePrintFiles(lineId));
        }
        for (const status of ['rendered', 'sending printjob'] as const) {
          const ended = await move(status);
          if (ended) return { status: ended };
        }
        submission = await ride(() => activities.submitPrintJob(lineId));
        break;
      } catch (error) {
        const reason = failureReasonOf(error);
        if (reason === undefined) throw error;
        const failed = await activities.failLine(lineId, reason);
        if (failed.final) return { status: failed.status };
        // Parked: wait for the retry (or a cancel, a refund) to move the line on.
        for (;;) {
          await waitForSignal<StatusUpdate>(STATUS_UPDATE_SIGNAL);
          line = await activities.getLineStatus(lineId);
          if (line.final) return { status: line.status };
          if (line.status !== 'failed processing') break;
        }
      }
    }
    const sent = await move('sent printjob');
    if (sent) return { status: sent };

    // 3. Follow the printer.
    if (submission.sandboxSteps) {
      for (const step of submission.sandboxSteps) {
        await sleep(input.sandboxStepMs);
        const ended = await move(step.status, step.trackingUrl, step.parcels);
        if (ended) return { status: ended };
      }
      return { status: 'complete' };
    }
    for (;;) {
      const event = await waitForSignal<StatusUpdate>(STATUS_UPDATE_SIGNAL);
      if (!event) continue;
      const ended = await move(event.status, event.trackingUrl, event.parcels);
      if (ended) return { status: ended };
    }
  },
};
