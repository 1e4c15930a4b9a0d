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
  // One offer lasts at most ATTEMPT_LIMIT_MS: the flow, not the engine, waits between offers.
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
/** The longest one offer of a job to a printer may wait for its answer (within the printer activity's timeout). */
const ATTEMPT_LIMIT_MS = 4 * 60_000;
/** Pauses between offers to a printer that answered "not now", and between attempts to withdraw a late job. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 10 * 60_000;

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
    holdOf: database,
    routeLine: database,
    submitPrintJob: printer,
    recordFailover: database,
    pendingWithdrawals: database,
    withdrawPrintJob: printer,
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
    type Accepted = Extract<Awaited<ReturnType<FulfilmentActivities['submitPrintJob']>>, { outcome: 'accepted' }>;

    /**
     * The job goes to the printers of the line's routing in turn. Each but the last has
     * `acceptTimeoutMs` to accept it, asked again (1 s, 2 s, 4 s … up to 10 minutes apart, or as its
     * Retry-After says) while it answers "not now" or nothing; a printer that refuses the job, or is
     * still silent at its deadline, is failed over to the next. A refusal of our own data is thrown (no printer would take it). None accepting
     * throws too: the line parks at `failed processing` until an operator retries it.
     */
    const submitRouted = async (): Promise<Accepted> => {
      const route = await activities.routeLine(lineId);
      const reasons: string[] = [];
      for (const [i, name] of route.printers.entries()) {
        // The last printer has no one to hand over to: it is asked until it answers, as a line without routing always was.
        const deadline = i < route.printers.length - 1 ? now() + route.acceptTimeoutMs : Number.POSITIVE_INFINITY;
        let pause = FIRST_RETRY_MS;
        for (;;) {
          const attempt = await activities.submitPrintJob(
            lineId,
            name,
            Math.max(1, Math.min(ATTEMPT_LIMIT_MS, deadline - now())),
          );
          if (attempt.outcome === 'accepted') return attempt;
          const wait = Math.min(
            attempt.outcome === 'unavailable' ? (attempt.retryAfterMs ?? pause) : 0,
            deadline - now(),
          );
          if (attempt.outcome === 'rejected' || wait <= 0) {
            reasons.push(`${name}: ${attempt.reason}`);
            await activities.recordFailover(lineId, {
              printer: name,
              next: route.printers[i + 1] ?? null,
              reason: attempt.reason,
              mayHoldJob: attempt.outcome === 'unavailable',
            });
            break;
          }
          await sleep(wait);
          pause = Math.min(pause * 2, LONGEST_RETRY_MS);
        }
      }
      throw new Error(`no printer of the line's routing accepted its job (${reasons.join('; ')})`);
    };

    /**
     * Takes the job back from printers failover left behind that may hold it after all; true while
     * some still may (they are asked again later).
     */
    const withdrawLate = async (timeoutMs: number): Promise<boolean> => {
      let pending = false;
      for (const name of await activities.pendingWithdrawals(lineId)) {
        const { done } = await activities.withdrawPrintJob(lineId, name, Math.min(ATTEMPT_LIMIT_MS, timeoutMs));
        if (!done) pending = true;
      }
      return pending;
    };

    let submission: Accepted;
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
        const ended = await move('rendered');
        if (ended) return { status: ended };
        // The shop's hold window: nothing goes to the printer before it ends; a cancel meanwhile ends the flow.
        const hold = await activities.holdOf(lineId);
        while (hold.until !== null && now() < hold.until) {
          await waitForSignal<StatusUpdate>(STATUS_UPDATE_SIGNAL, hold.until - now());
          line = await activities.getLineStatus(lineId);
          if (line.final) return { status: line.status };
        }
        const sending = await move('sending printjob');
        if (sending) return { status: sending };
        submission = await ride(() => submitRouted());
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

    // 3. Follow the printer, while taking the job back from any printer failover left behind.
    const { acceptTimeoutMs } = await activities.routeLine(lineId);
    let withdrawing = await withdrawLate(acceptTimeoutMs);
    let withdrawPause = FIRST_RETRY_MS * 2;
    if (submission.sandboxSteps) {
      for (const step of submission.sandboxSteps) {
        await sleep(input.sandboxStepMs);
        if (withdrawing) withdrawing = await withdrawLate(acceptTimeoutMs);
        const ended = await move(step.status, step.trackingUrl, step.parcels);
        if (ended) return { status: ended };
      }
      return { status: 'complete' };
    }
    for (;;) {
      const event = await waitForSignal<StatusUpdate>(STATUS_UPDATE_SIGNAL, withdrawing ? withdrawPause : undefined);
      if (!event) {
        if (withdrawing) {
          withdrawing = await withdrawLate(acceptTimeoutMs);
          withdrawPause = Math.min(withdrawPause * 2, LONGEST_RETRY_MS);
        }
        continue;
      }
      const ended = await move(event.status, event.trackingUrl, event.parcels);
      if (ended) return { status: ended };
    }
  },
};
