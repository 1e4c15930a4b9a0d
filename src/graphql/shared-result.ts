import type { ExecutionResult, FormattedExecutionResult } from 'graphql';

type Outcome = { result: ExecutionResult } | { error: unknown };

/**
 * One event's result for every subscriber that shares it: executed once and, when pushed to
 * sockets, serialized once (shared-subscription-results.ts).
 */
export class SharedResult {
  /** The result, for subscribers that pull it; it rejects if the execution threw. */
  readonly settled: Promise<ExecutionResult>;
  private outcome?: Outcome;
  private waiting?: (() => void)[];
  private json?: string;

  constructor(execution: () => ExecutionResult | Promise<ExecutionResult>) {
    let value: ExecutionResult | Promise<ExecutionResult>;
    try {
      value = execution();
    } catch (error) {
      value = Promise.reject(error);
    }
    if (value instanceof Promise) {
      this.settled = value;
      value.then(
        (result) => this.settle({ result }),
        (error: unknown) => this.settle({ error }),
      );
    } else {
      this.outcome = { result: value };
      this.settled = Promise.resolve(value);
    }
  }

  get isSettled(): boolean {
    return this.outcome !== undefined;
  }

  /** Calls `callback` once the result is in: now, if it is. */
  whenSettled(callback: () => void): void {
    if (this.outcome) callback();
    else (this.waiting ??= []).push(callback);
  }

  /** The settled result as `format` makes it, in JSON; throws what the execution threw. */
  payloadJson(format: (result: ExecutionResult) => FormattedExecutionResult): string {
    if (!this.outcome) throw new Error('the result is not settled yet');
    if ('error' in this.outcome) throw this.outcome.error;
    return (this.json ??= JSON.stringify(format(this.outcome.result)));
  }

  private settle(outcome: Outcome): void {
    this.outcome = outcome;
    for (const callback of this.waiting?.splice(0) ?? []) callback();
  }
}
