/**
 * A type-graphql enum built from one of the service's lists of values (each value its own name),
 * so a value added to the list appears in the schema without a second edit.
 */
export function enumOf<const T extends string>(values: readonly T[]): { [K in T]: K } {
  return Object.fromEntries(values.map((value) => [value, value])) as { [K in T]: K };
}
