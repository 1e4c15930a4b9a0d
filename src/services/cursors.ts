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
