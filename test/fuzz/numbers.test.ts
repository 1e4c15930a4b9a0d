import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isLeafType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlSchema } from '../../src/graphql/schema';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { FUZZ_RUNS, FUZZ_SEED, hostileNumber, leakIn, type JsonSchema } from './fuzz-support';

/*
 * Issue 39: every numeric field of every POST and mutation (and every numeric query parameter),
 * REST and GraphQL, set to numbers that broke services elsewhere (2^31, 2^53, -1, 1e10, 1e308,
 * floats, NaN-ish strings): never a 500, never INTERNAL, never internals in the answer. Each field
 * gets every value of the fixed list, then fast-check adds FUZZ_RUNS random (field, value) pairs.
 */

/** Numbers and number-like text at and beyond every bound a field may have. */
const HOSTILE_NUMBERS: unknown[] = [
  2 ** 31,
  2 ** 31 - 1,
  2 ** 32,
  2 ** 53,
  -(2 ** 53),
  -1,
  0,
  -0,
  1,
  3,
  25,
  1001,
  1e9 + 0.01,
  1e10,
  1e15,
  1e21,
  1e308,
  -1e308,
  0.5,
  1.005,
  1e-7,
  5e-324,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '0x1f',
  '2147483648',
  '1_000',
  '',
  null,
  true,
  [],
  {},
];

type Path = (string | number)[];

/** A copy of `value` with `replacement` at `path`, creating the objects and arrays on the way. */
function withValueAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...value] : [];
    list[head] = withValueAt(list[head], rest, replacement);
    return list;
  }
  const record =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { ...(value as Record<string, unknown>) }
      : {};
  record[head] = withValueAt(record[head], rest, replacement);
  return record;
}

/** Every path to an integer or number in a JSON schema (arrays at index 0, each alternative of a union). */
function numericPathsOf(schema: JsonSchema | undefined, prefix: Path = [], depth = 0): Path[] {
  if (!schema || depth > 8) return [];
  const types = [schema.type].flat();
  const here = types.includes('integer') || types.includes('number') ? [prefix] : [];
  const alternatives = (schema.anyOf ?? schema.oneOf ?? []).flatMap((s) => numericPathsOf(s, prefix, depth + 1));
  const members = Object.entries(schema.properties ?? {}).flatMap(([name, s]) =>
    numericPathsOf(s, [...prefix, name], depth + 1),
  );
  const items = schema.items ? numericPathsOf(schema.items, [...prefix, 0], depth + 1) : [];
  const unique = new Map([...here, ...alternatives, ...members, ...items].map((p) => [JSON.stringify(p), p]));
  return [...unique.values()];
}

/** Every path to an Int or Float in a GraphQL input type (lists at index 0). */
function graphqlNumericPaths(type: GraphQLInputType, prefix: Path, depth = 0): Path[] {
  if (depth > 6) return [];
  if (isNonNullType(type)) return graphqlNumericPaths(type.ofType, prefix, depth);
  if (isListType(type)) return graphqlNumericPaths(type.ofType, [...prefix, 0], depth + 1);
  if (isInputObjectType(type))
    return Object.values(type.getFields()).flatMap((f) => graphqlNumericPaths(f.type, [...prefix, f.name], depth + 1));
  return type.name === 'Int' || type.name === 'Float' ? [prefix] : [];
}

/** A value of a GraphQL input type with only its required members: the base a numeric field is put into. */
function minimalValue(type: GraphQLInputType, good: Record<string, unknown>, name: string, depth = 0): unknown {
  if (isNonNullType(type)) return minimalValue(type.ofType, good, name, depth);
  if (name in good) return good[name];
  if (isListType(type)) return [minimalValue(type.ofType, good, name, depth + 1)];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    if (depth > 4) return {};
    const required = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(required.map((f) => [f.name, minimalValue(f.type, good, f.name, depth + 1)]));
  }
  return ({ Int: 1, Float: 1, Boolean: true, JSONObject: {} } as Record<string, unknown>)[type.name] ?? 'x';
}

function selectionOf(type: GraphQLField<unknown, unknown>['type']): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return '';
  const leaves = Object.values(named.getFields())
    .filter((f) => isLeafType(getNamedType(f.type)) && f.args.length === 0)
    .map((f) => f.name);
  return ` { __typename ${leaves.join(' ')} }`;
}

interface Target {
  label: string;
  send(value: unknown): Promise<{ status: number; text: string; codes: string[] }>;
}

describe('numeric fuzzing: every number of every POST, query and mutation, REST and GraphQL', () => {
  let api: TestService;
  let shop: IssuedClient;
  let auth: Record<string, string>;
  const targets: Target[] = [];
  let sent = 0;

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Numbers shop');
    auth = serviceHeader(shop.credentials.dev);
    const projectId = await editableProject(api, auth, { userId: 'numbers-user' });
    const ecommerce = { env: 'dev', key: shop.credentials.dev.apiKey };
    // Orders placed before payment: one that a value leaves valid waits instead of rendering.
    const order = (orderId: string) => ({ ...printBody(orderId, projectId), paymentPending: true });
    const restExamples: Record<string, { body?: unknown; query?: Record<string, unknown> }> = {
      'POST /v2/generate': {
        body: { userId: 'numbers-user', sku: 'PB-HC-15-S', psp: 'local', marketId: 0, photos: [] },
      },
      'POST /v2/print': { body: order('numbers') },
      'POST /v2/quote': {
        body: {
          marketId: 0,
          countryIso2: 'DE',
          coupon: { value: 1 },
          lines: [
            { projectId, quantity: 1 },
            { sku: 'PB-HC-15-S', pageCount: 30, quantity: 2 },
          ],
        },
      },
      'GET /v2/cover-dimensions': { query: { sku: 'PB-HC-15-S', pages: 30 } },
      'GET /v2/order/list': { query: { limit: 10 } },
      'GET /v2/project/list': { query: { user: 'numbers-user' } },
      'POST /api/v2/product/list-product.php': {
        body: { ...ecommerce, language: 'de', os: 'web', v: 2, schema: 1, marketId: 0, printType: 'photobook' },
      },
      'POST /api/v2/misc/get-market.php': { body: { ...ecommerce, language: 'en', latitude: 52.5, longitude: 13.4 } },
      'POST /api/v2/user/get-order-history.php': { body: { ...ecommerce, email: 'ada@example.com' } },
    };

    const { body: document } = await request(api.url, 'GET', '/openapi.json');
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        const example = restExamples[name] ?? {};
        const bodySchema: JsonSchema | undefined = operation.requestBody?.content?.['application/json']?.schema;
        for (const field of numericPathsOf(bodySchema)) {
          targets.push({
            label: `${name} body.${field.join('.')}`,
            async send(value) {
              let body = withValueAt(example.body ?? {}, field, value) as Record<string, unknown>;
              // A fresh orderId each time, so a print reaches its checks instead of its replay.
              if (name === 'POST /v2/print') body = { ...body, orderId: `numbers-${sent}` };
              const response = await request(api.url, method.toUpperCase(), path, { body, headers: auth });
              return { status: response.status, text: JSON.stringify(response.body), codes: [response.body?.code] };
            },
          });
        }
        for (const parameter of (operation.parameters ?? []).filter(
          (p: any) => p.in === 'query' && numericPathsOf(p.schema).length > 0,
        )) {
          targets.push({
            label: `${name} ?${parameter.name}`,
            async send(value) {
              const query = {
                ...(example.query ?? {}),
                [parameter.name]: typeof value === 'string' ? value : JSON.stringify(value),
              };
              const search = new URLSearchParams(
                Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
              );
              const response = await request(api.url, method.toUpperCase(), `${path}?${search}`, { headers: auth });
              return { status: response.status, text: JSON.stringify(response.body), codes: [response.body?.code] };
            },
          });
        }
      }
    }

    // Amounts changed one at a time are refused as a totals mismatch before they reach the database:
    // these change the grand total with them, so the order adds up and every later step sees the number.
    const agreeing: [string, (body: any, value: unknown) => void][] = [
      [
        'lineItemTotal',
        (body, value) =>
          Object.assign(body, {
            projects: [{ ...body.projects[0], lineItemTotal: value }],
            payment: { grandTotal: value },
          }),
      ],
      [
        'shipping.cost',
        (body, value) =>
          Object.assign(body.payment, {
            coupon: undefined,
            shipping: { method: 'standard', cost: value },
            grandTotal: typeof value === 'number' ? 34.99 + value : value,
          }),
      ],
      [
        'coupon.value',
        (body, value) =>
          Object.assign(body.payment, {
            coupon: { code: 'FUZZ', value },
            grandTotal: typeof value === 'number' ? 39.99 - value : value,
          }),
      ],
    ];
    for (const [field, change] of agreeing) {
      targets.push({
        label: `POST /v2/print ${field} with totals that agree`,
        async send(value) {
          const body: any = order(`numbers-${sent}`);
          change(body, value);
          const response = await request(api.url, 'POST', '/v2/print', { body, headers: auth });
          return { status: response.status, text: JSON.stringify(response.body), codes: [response.body?.code] };
        },
      });
      targets.push({
        label: `mutation printOrder ${field} with totals that agree`,
        async send(value) {
          const input: any = order(`numbers-gql-${sent}`);
          change(input, value);
          const response = await post(
            api.url,
            '/graphql',
            {
              query: 'mutation ($input: PrintOrderInput!) { printOrder(input: $input) { message } }',
              variables: { input },
            },
            auth,
          );
          const codes = (response.body?.errors ?? []).map(
            (e: { extensions?: { code?: string } }) => e.extensions?.code ?? '',
          );
          return { status: response.status, text: JSON.stringify(response.body), codes };
        },
      });
    }

    const good: Record<string, unknown> = {
      projectId,
      id: projectId,
      ids: [projectId],
      sku: 'PB-HC-15-S',
      psp: 'local',
      marketId: '0',
      countryIso2: 'DE',
      userId: 'numbers-user',
      user: 'numbers-user',
      email: 'ada@example.com',
      language: 'en',
      idempotencyKey: null,
      targetUser: 'other-user',
      csvUrl: 'http://127.0.0.1:1/rows.csv',
    };
    const graphqlExamples: Record<string, Record<string, unknown>> = {
      printOrder: { input: printBody('numbers-gql', projectId) },
      validateOrder: { input: printBody('numbers-gql', projectId) },
      quote: {
        input: {
          marketId: '0',
          countryIso2: 'DE',
          coupon: { value: 1 },
          lines: [
            { projectId, quantity: 1 },
            { sku: 'PB-HC-15-S', pageCount: 30, quantity: 2 },
          ],
        },
      },
    };
    const schema = await graphqlSchema();
    for (const [kind, root] of [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
    ] as const) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        const variables = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
        const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
        const text = `${kind} Numbers${variables ? `(${variables})` : ''} { ${field.name}${args ? `(${args})` : ''}${selectionOf(field.type)} }`;
        const base =
          graphqlExamples[field.name] ??
          Object.fromEntries(
            field.args.filter((a) => isNonNullType(a.type)).map((a) => [a.name, minimalValue(a.type, good, a.name)]),
          );
        for (const arg of field.args) {
          for (const at of graphqlNumericPaths(arg.type, [arg.name])) {
            targets.push({
              label: `${kind} ${field.name}(${at.join('.')})`,
              async send(value) {
                let vars = withValueAt(base, at, value) as Record<string, any>;
                if (field.name === 'printOrder')
                  vars = { ...vars, input: { ...vars.input, orderId: `numbers-gql-${sent}`, paymentPending: true } };
                const response = await post(api.url, '/graphql', { query: text, variables: vars }, auth);
                const codes = (response.body?.errors ?? []).map(
                  (e: { extensions?: { code?: string } }) => e.extensions?.code ?? '',
                );
                return { status: response.status, text: JSON.stringify(response.body), codes };
              },
            });
          }
        }
      }
    }
  }, 120_000);
  afterAll(() => api?.stop());

  async function check(target: Target, value: unknown): Promise<void> {
    sent++;
    const { status, text, codes } = await target.send(value);
    const label = `${target.label} = ${JSON.stringify(value)} -> ${status} ${text.slice(0, 400)}`;
    expect(status, label).toBeLessThan(500);
    expect(codes, label).not.toContain('INTERNAL');
    expect(codes, label).not.toContain('INTERNAL_SERVER_ERROR');
    expect(leakIn(text), label).toBeUndefined();
  }

  it('finds the numeric fields of print, quote, validateOnly, generate, the editor mutations and the listings', () => {
    const labels = targets.map((t) => t.label);
    for (const expected of [
      'POST /v2/print body.projects.0.quantity',
      'POST /v2/print body.projects.0.lineItemTotal',
      'POST /v2/print body.payment.grandTotal',
      'POST /v2/print body.payment.coupon.value',
      'POST /v2/print body.payment.shipping.cost',
      'POST /v2/print body.projects.0.metadata.pageCount',
      'POST /v2/quote body.lines.0.quantity',
      'POST /v2/quote body.lines.0.pageCount',
      'mutation printOrder(input.projects.0.quantity)',
      'mutation printOrder(input.payment.grandTotal)',
      'query validateOrder(input.projects.0.lineItemTotal)',
      'mutation quote(input.lines.0.pageCount)',
      'mutation addPages(after)',
      'mutation movePage(from)',
    ])
      expect(labels).toContain(expected);
    console.log(`numeric fields fuzzed: ${targets.length}`);
  });

  it('answers every hostile number in every numeric field without a 500', async () => {
    for (const target of targets) for (const value of HOSTILE_NUMBERS) await check(target, value);
  }, 900_000);

  it('answers random numbers in random numeric fields without a 500', async () => {
    const value = fc.oneof(
      hostileNumber,
      fc.double(),
      fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
      fc.constantFrom(...HOSTILE_NUMBERS),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: targets.length - 1 }), value, (index, number) =>
        check(targets[index], number),
      ),
      { numRuns: FUZZ_RUNS, seed: FUZZ_SEED, endOnFailure: true },
    );
  }, 900_000);
});
