import fc from 'fast-check';
import type { TestService } from '../support/harness';

/**
 * Shared parts of the property-based fuzzers: the case count and seed (fixed in `npm test`, larger
 * through FUZZ_RUNS in `npm run soak`), hostile values, a JSON-Schema-guided generator that mostly
 * stays near the shape a route expects (so requests get past the first check) and sometimes does
 * not, and the checks every answer must pass.
 */

export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 500);
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** Values that broke or could break a parser, a database or a log line. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '📷\u200d',
  "'; DROP TABLE projects; --",
  '" OR 1=1 --',
  '%00',
  '%',
  '\\',
  '${jndi:ldap://127.0.0.1/a}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  'file:///etc/passwd',
  'http://127.0.0.1:1/a.jpg',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]:1/',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  'pb_',
  'pb_00000000000000000000000000',
  'dev',
  'prod',
  'a'.repeat(5000),
  '\n\r\t',
  'ｆｕｌｌｗｉｄｔｈ',
];

/** Text PostgreSQL refuses: the class of bug issue 9 found, so it comes up often. */
const UNSTORABLE_STRINGS = ['\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\ud83d'];

export const hostileString = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...UNSTORABLE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, 0.5, -0),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, small, with hostile strings at the leaves. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 3 }),
  ),
})).value;

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  $ref?: string;
}

/** Values a field of this name takes when the request is right: requests must get past the first check to test the rest. */
export type GoodValues = Record<string, unknown[]>;

/**
 * A value near `schema`: usually of the right type (often a known good value of a field of that
 * name), sometimes of any type; every optional member may be left out.
 */
export function nearSchema(
  schema: JsonSchema | undefined,
  good: GoodValues = {},
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anyJson;
  const alternatives = schema.anyOf ?? schema.oneOf;
  const typed = typedFor(schema, alternatives, good, depth);
  const known = good[name];
  return fc.oneof(
    { weight: known ? 12 : 0, arbitrary: known ? fc.constantFrom(...known) : anyJson },
    { weight: 8, arbitrary: typed },
    { weight: 1, arbitrary: anyJson },
  );
}

function typedFor(
  schema: JsonSchema,
  alternatives: JsonSchema[] | undefined,
  good: GoodValues,
  depth: number,
): fc.Arbitrary<unknown> {
  const nearSchema_ = (s: JsonSchema | undefined, name = '') => nearSchema(s, good, name, depth + 1);
  if (alternatives) return fc.oneof(...alternatives.map((s) => nearSchema_(s)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.oneof(fc.constantFrom(...schema.enum), hostileString);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      // A free-form object (metadata, a record of values): keys and values are the client's.
      if (!schema.properties) return fc.dictionary(hostileString, anyJson, { maxKeys: 4 });
      const members = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, s]) => [name, nearSchema_(s, name)]),
      );
      return fc.record(members, { requiredKeys: (schema.required ?? []).filter((name) => name in members) });
    }
    case 'array':
      return fc.array(nearSchema_(schema.items), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'string':
      return hostileString;
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 5, 5) }), hostileNumber);
    case 'number':
      return fc.oneof(
        fc.double({ min: schema.minimum ?? -200, max: schema.maximum ?? 200, noNaN: true }),
        hostileNumber,
      );
    case 'boolean':
      return fc.boolean();
    default:
      return anyJson;
  }
}

/** A stack frame or a database message in an answer is a leak of internals. */
const LEAKS = [
  /\n\s+at [^\n]+:\d+:\d+/,
  /node_modules/,
  /\b(?:select|insert into|update|delete from)\b[^"]{0,80}\b(?:from|values|set|where)\b/i,
  /violates [a-z ]+ constraint/i,
  /syntax error at or near/i,
  /relation "[^"]+" does not exist/i,
  /invalid byte sequence for encoding/i,
  /unsupported Unicode escape sequence/i,
  /MikroORM|DriverException|knex/i,
];

export function leakIn(text: string): string | undefined {
  return LEAKS.find((pattern) => pattern.test(text))?.source;
}

/**
 * The rows a request can add synchronously, by table: a rejected request must change none of them.
 * (Background work of earlier accepted requests changes statuses and events, not these counts.)
 */
const STATE_TABLES = [
  'projects',
  'photos',
  'end_users',
  'orders',
  'order_lines',
  'campaigns',
  'campaign_rows',
  'webhook_endpoints',
];

export async function stateOf(api: TestService): Promise<string> {
  const connection = (await api.orm()).em.getConnection();
  const [row] = await connection.execute(
    `SELECT ${STATE_TABLES.map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(', ')}`,
  );
  return JSON.stringify(row);
}

/** Every path into a JSON value (object members and array items), the root included as []. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (Array.isArray(value)) value.forEach((item, i) => paths.push(...pathsOf(item, [...prefix, i])));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

function withAt(value: unknown, path: (string | number)[], replace: (old: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? withAt(item, rest, replace) : item));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const next = withAt(copy[head as string], rest, replace);
    if (next === REMOVED) delete copy[head as string];
    else copy[head as string] = next;
    return copy;
  }
  return value;
}

const REMOVED = Symbol('removed');

/**
 * A valid example changed in one to three places: a value replaced by a hostile one or by any
 * JSON, a member removed, or a member added. Most such requests get as far as the service, which
 * is where the 500s hide.
 */
export function mutationsOf(example: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(example);
  const change = fc.record({
    path: fc.constantFrom(...paths),
    kind: fc.constantFrom('hostile', 'any', 'remove', 'add'),
    value: fc.oneof(hostileString, anyJson),
    name: hostileString,
  });
  return fc.array(change, { minLength: 1, maxLength: 3 }).map((changes) =>
    changes.reduce<unknown>(
      (body, { path, kind, value, name }) =>
        withAt(body, path, (old) => {
          if (kind === 'remove') return path.length ? REMOVED : {};
          if (kind === 'add' && old !== null && typeof old === 'object' && !Array.isArray(old))
            return { ...old, [name]: value };
          if (kind === 'add' && Array.isArray(old)) return [...old, value];
          return value;
        }),
      example,
    ),
  );
}
