import { DomainError, type ErrorKind } from '../../domain/errors';

/** One thing wrong with an order, as `validateOnly` lists it: the code and field the print would answer. */
export interface OrderProblem {
  code: string;
  path: string;
  message: string;
}

/**
 * The checks of an order, run once by two callers: a print stops at the first failing check
 * (`stopAtFirst`: the error it throws is the answer), a validation (`validateOnly`,
 * GraphQL `validateOrder`) goes on and lists what every check found.
 */
export class OrderChecks {
  readonly problems: OrderProblem[] = [];

  constructor(private readonly mode: 'stopAtFirst' | 'collect') {}

  get failed(): boolean {
    return this.problems.length > 0;
  }

  /** Runs a check; in collect mode a refusal is recorded and the check answers undefined. */
  async run<T>(check: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await check();
    } catch (error) {
      if (this.mode === 'stopAtFirst' || !(error instanceof DomainError)) throw error;
      this.problems.push(...problemsOf(error));
      return undefined;
    }
  }

  /** Several problems of one kind found together: one error listing them all (its code the first's), or each recorded. */
  refuse(kind: ErrorKind, problems: OrderProblem[]): void {
    if (problems.length === 0) return;
    if (this.mode === 'collect') {
      this.problems.push(...problems);
      return;
    }
    const message = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    throw new DomainError(
      kind,
      problems[0].code,
      message,
      problems.map(({ path, message: text }) => ({ path, message: text })),
    );
  }
}

function problemsOf(error: DomainError): OrderProblem[] {
  if (error.errors.length === 0) return [{ code: error.code, path: '(body)', message: error.message }];
  return error.errors.map((e) => ({ code: error.code, path: e.path, message: e.message }));
}
