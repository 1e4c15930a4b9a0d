import type { FilterQuery } from '@mikro-orm/core';
import type { Order } from '../../db/entities';
import { ValidationError } from '../../domain/errors';

/** Longer than any name or e-mail an order stores (first and last name 200 each, e-mail 320). */
const MAX_CUSTOMER_SEARCH = 320;
/** A search of many words would AND as many OR-ed ILIKEs; a name has few. */
const MAX_CUSTOMER_WORDS = 5;

/**
 * The dashboard's customer search (`customer` on the order list): every word of it found, in any
 * case, inside the first name, the last name or the e-mail as the order stores them, so "ada love"
 * finds Ada Lovelace and "example.com" her address. A substring match without an index of its own:
 * it reads the caller's orders in keyset order until a page is full, which is fine at a shop's
 * scale (docs/api.md, Order list).
 */
export function customerWhere(search: string): { $and: FilterQuery<Order>[] } {
  const words = search.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || search.length > MAX_CUSTOMER_SEARCH) {
    throw ValidationError.field('customer', `must be 1 to ${MAX_CUSTOMER_SEARCH} characters, not only spaces`);
  }
  if (words.length > MAX_CUSTOMER_WORDS) {
    throw ValidationError.field('customer', `must be at most ${MAX_CUSTOMER_WORDS} words`);
  }
  return {
    $and: words.map((word) => {
      const pattern = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return {
        $or: [{ firstName: { $ilike: pattern } }, { lastName: { $ilike: pattern } }, { email: { $ilike: pattern } }],
      };
    }),
  };
}
