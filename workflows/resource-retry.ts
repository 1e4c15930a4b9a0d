import type { FlowContext } from './flow-context';
import { isResourceUnavailable } from '../src/domain/resource-errors';

/** The first pause after a resource fault; each next one doubles, up to the longest. */
const FIRST_PAUSE_MS = 5_000;
const LONGEST_PAUSE_MS = 60_000;

/**
 * Runs `call` (one activity), riding out resource faults (a full or unwritable store, an S3 store
 * answering 5xx; src/storage/resource-faults.ts): after each, a durable sleep of 5 s, 10 s, 20 s …
 * at most a minute, and again, for as long as the window the operator set (RESOURCE_RETRY_WINDOW,
 * asked once through `window`, so a replay sees the same). A blip passes unnoticed; a fault that
 * outlasts the window, or any other error at once, is thrown for the flow to fail its line or
 * project. Sleeps survive restarts, so the window counts from the first fault, not from a restart.
 */
export async function rideOutResourceFaults<T>(
  ctx: Pick<FlowContext<never>, 'sleep' | 'now'>,
  window: () => Promise<number>,
  call: () => Promise<T>,
): Promise<T> {
  let windowMs: number | undefined;
  let since: number | undefined;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isResourceUnavailable(error)) throw error;
      windowMs ??= await window();
      since ??= ctx.now();
      const left = since + windowMs - ctx.now();
      if (left <= 0) throw error;
      await ctx.sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}

/**
 * Why an activity failed for good, as the line or project records it (at most 500 characters), or
 * undefined for an engine's own errors (DBOS's, a stopping engine's, Temporal's cancellation):
 * those are the engine's business, never a failure of the work.
 */
export function failureReasonOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || 'dbosErrorCode' in error) return undefined;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'EngineStoppedError' || name === 'CancelledFailure') return undefined;
  const text = typeof message === 'string' && message !== '' ? message : String(name ?? 'unknown error');
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}
