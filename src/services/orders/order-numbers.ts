import { ValidationError } from '../../domain/errors';
import { MAX_BOOK_PAGES, MAX_COPIES, MAX_MONEY } from '../../domain/limits';

/*
 * The published bounds of the numbers a client sends with a quote or an order (docs/api.md,
 * Limits), checked in the service: the REST schemas publish the same bounds and refuse first, and
 * GraphQL (whose Int and Float say nothing of range) and `validateOnly` reach these. Each refusal
 * is a 400 VALIDATION_FAILED naming the field as sent, so no number out of range reaches the
 * database, the arithmetic or a flow that sizes its work by it.
 */

/** Copies: an integer from 1 to MAX_COPIES. */
export function checkCopies(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_COPIES) {
    throw ValidationError.field(path, `must be an integer from 1 to ${MAX_COPIES}`);
  }
  return value;
}

/** An amount in major units: a finite number from 0 to MAX_MONEY. */
export function checkAmount(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_MONEY) {
    throw ValidationError.field(path, `must be a number from 0 to ${MAX_MONEY}`);
  }
  return value;
}

/** Interior pages a client names: an even integer from 2 to MAX_BOOK_PAGES (the product narrows it further). */
export function checkPageCount(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 2 || value > MAX_BOOK_PAGES || value % 2 !== 0) {
    throw ValidationError.field(path, `must be an even integer from 2 to ${MAX_BOOK_PAGES}`);
  }
  return value;
}

/** Pages above a product's `min.pages`: an integer from 0 to MAX_BOOK_PAGES. */
export function checkExtraPages(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_BOOK_PAGES) {
    throw ValidationError.field(path, `must be an integer from 0 to ${MAX_BOOK_PAGES}`);
  }
  return value;
}
