import { Cursor } from '@mikro-orm/core';
import { ValidationError } from '../domain/errors';

/**
 * Cursors are opaque to clients. Every list pages by keyset on (createdAt, id), so a cursor we
 * issued decodes to those two values; anything else is refused up front as bad input naming the
 * field it came in (`cursor` in REST, `after` in GraphQL), before it reaches the query.
 */
export function assertIssuedCursor(cursor: string, field: string): void {
  try {
    const decoded: unknown = Cursor.decode(cursor);
    if (!Array.isArray(decoded) || decoded.length !== 2) throw new Error('shape');
  } catch {
    throw ValidationError.field(field, 'is not a cursor this service issued', 'UNKNOWN_CURSOR');
  }
}

/** The instants a (createdAt, id) cursor we issued can hold: rows are created between these. */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);

/**
 * A cursor of the (createdAt, id) keyset, with values the query can bind: a date-time within
 * the years rows are created in, and an id of the form the key column stores (`isId`: a uuid for
 * orders). A forged cursor that decodes to anything else (another date, a year PostgreSQL refuses,
 * a number or text where a uuid belongs) is refused as `assertIssuedCursor` refuses it, naming the
 * field; it never reaches the database to fail there as a 500.
 */
export function assertDateIdCursor(cursor: string, field: string, isId: (id: unknown) => boolean): void {
  assertIssuedCursor(cursor, field);
  const [createdAt, id] = Cursor.decode(cursor) as unknown[];
  const at = createdAt instanceof Date ? createdAt.getTime() : Number.NaN;
  if (!(at >= EARLIEST && at <= LATEST) || !isId(id)) {
    throw ValidationError.field(field, 'is not a cursor this service issued', 'UNKNOWN_CURSOR');
  }
}

/** A uuid as PostgreSQL's uuid column takes it. */
export function isUuid(id: unknown): boolean {
  return typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}
