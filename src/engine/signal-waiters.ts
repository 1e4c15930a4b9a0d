import type { Logger } from 'pino';
import { delay } from './abortable';

interface Waiter {
  name: string;
  wake: () => void;
}

/** The signals waiting for a run: which (workflowId, name) pairs have unconsumed rows. */
export type PendingSignalQuery = (workflowIds: string[]) => Promise<Array<{ workflowId: string; name: string }>>;

/**
 * Wakes flows waiting for a signal: at once when this process received it (`poke`), within one
 * poll interval when another process inserted it, and at the wait's deadline. One poll query per
 * interval serves all waiting runs of the process, and only runs while someone waits.
 */
export class SignalWaiters {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly versions = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly pendingSignals: PendingSignalQuery,
    private readonly pollIntervalMs: number,
    private readonly log: Logger,
  ) {}

  /** Changes whenever a signal `name` for the run may have arrived; read it before looking. */
  version(workflowId: string, name: string): number {
    const k = key(workflowId, name);
    const version = this.versions.get(k);
    if (version !== undefined) return version;
    this.versions.set(k, 0);
    return 0;
  }

  poke(workflowId: string, name: string): void {
    const k = key(workflowId, name);
    const version = this.versions.get(k);
    // Only runs that look for signals here have a version (and `forget` drops it).
    if (version !== undefined) this.versions.set(k, version + 1);
    for (const waiter of this.waiters.get(workflowId) ?? []) {
      if (waiter.name === name) waiter.wake();
    }
  }

  /**
   * Resolves when signal `name` may have arrived since `sinceVersion` was read, or at `deadline`
   * (epoch ms; null waits without end); rejects when `signal` aborts.
   */
  async wait(workflowId: string, name: string, sinceVersion: number, deadline: number | null, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw signal.reason;
    if (this.version(workflowId, name) !== sinceVersion) return;
    const stopWaiting = new AbortController();
    const onAbort = () => stopWaiting.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const waiter: Waiter = { name, wake: () => stopWaiting.abort('woken') };
    let set = this.waiters.get(workflowId);
    if (!set) this.waiters.set(workflowId, (set = new Set()));
    set.add(waiter);
    this.schedulePoll();
    try {
      await delay(deadline === null ? Number.MAX_SAFE_INTEGER : deadline - Date.now(), stopWaiting.signal);
    } catch (error) {
      if (signal.aborted) throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(workflowId);
    }
  }

  /** Drops the bookkeeping of a run that no longer executes here. */
  forget(workflowId: string): void {
    for (const k of this.versions.keys()) if (k.startsWith(`${workflowId}\u0000`)) this.versions.delete(k);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedulePoll(): void {
    if (this.timer || this.polling) return;
    this.timer = setTimeout(() => void this.poll(), this.pollIntervalMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    if (this.waiters.size === 0) return;
    this.polling = true;
    try {
      for (const { workflowId, name } of await this.pendingSignals([...this.waiters.keys()])) this.poke(workflowId, name);
    } catch (error) {
      this.log.warn({ err: error }, 'polling for workflow signals failed');
    } finally {
      this.polling = false;
    }
    if (this.waiters.size > 0) this.schedulePoll();
  }
}

function key(workflowId: string, name: string): string {
  return `${workflowId}\u0000${name}`;
}
