import type { Logger } from 'pino';
import type { Config } from '../config';

/** What each loop of the exhaustion keeps: an array of a million small integers, 8 MiB of heap. */
const CHUNK = 1 << 20;

/**
 * Test-only fault injection, for test/faults/poison-flow.test.ts: with TEST_EXHAUST_MEMORY_IN_ACTIVITY
 * set (never in production: the configuration refuses it), that activity fills the heap until V8
 * aborts the process, as the issue-39 order whose sandbox parcels ran the heap out did, at every
 * run and every recovery. Otherwise the activities are returned as they are.
 */
// biome-ignore lint/suspicious/noExplicitAny: wraps any activity, whatever its arguments and result
export function withInjectedFaults<A extends Record<string, (...args: any[]) => Promise<any>>>(
  activities: A,
  config: Pick<Config, 'exhaustMemoryInActivity'>,
  log: Logger,
): A {
  const name = config.exhaustMemoryInActivity;
  if (!name || !(name in activities)) return activities;
  log.warn(
    { activity: name },
    'TEST_EXHAUST_MEMORY_IN_ACTIVITY: this activity exhausts the heap whenever it runs (tests only)',
  );
  const exhaust = async () => {
    const kept: unknown[] = [];
    for (;;) {
      kept.push(new Array<number>(CHUNK).fill(kept.length));
      // Lets the event loop answer requests meanwhile, as a real runaway allocation between awaits would.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { ...activities, [name]: exhaust };
}
