import { canonicalJson } from '../domain/canonical-json';

/**
 * A GraphQL input object (type-graphql's class instances, JSON scalars inside) as the plain JSON
 * value the services take, the same shape REST hands them. Written with canonicalJson, which does
 * not recurse, and read back with JSON.parse, which does not either: a JSON scalar nested 20,000
 * levels deep reaches the service's check of its field (a 400) instead of overflowing the stack
 * in JSON.stringify (a 500). Key order is irrelevant to the services.
 */
export function plainInput<T>(input: unknown): T {
  return JSON.parse(canonicalJson(input)) as T;
}
