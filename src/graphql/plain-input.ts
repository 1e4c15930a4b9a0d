import { canonicalJson } from '../domain/canonical-json';

/**
 * A GraphQL input object (type-graphql's class instances, JSON scalars inside) as the plain JSON
 * value the services take, the same shape REST hands them, so that the one schema of an input
 * checks both. A member the client set to null is left out: for an optional GraphQL input field
 * null means not given, which REST says by leaving the field out (its schema refuses a null).
 * Written with canonicalJson, which does not recurse, and read back with JSON.parse, which does
 * not either: a JSON scalar nested 20,000 levels deep reaches the service's check of its field
 * (a 400) instead of overflowing the stack in JSON.stringify (a 500). Key order is irrelevant to
 * the services.
 */
export function plainInput<T>(input: unknown): T {
  return JSON.parse(canonicalJson(withoutNullMembers(input))) as T;
}

/**
 * The members of type-graphql's input instances without the nulls; a JSON scalar's plain object
 * (the client's own data, e.g. metadata) is kept as sent and not walked, so the walk is only as
 * deep as the GraphQL input types nest.
 */
function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullMembers);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([key, member]) => [key, withoutNullMembers(member)]),
  );
}
