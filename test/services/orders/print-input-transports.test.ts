import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROJECTS_PER_ORDER } from '../../../src/domain/limits';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { graphql } from '../../support/graphql';
import { printBody } from '../../support/print-fixtures';

/*
 * Issue 33: the print input is declared once (src/services/orders/print-input.ts) with its limits.
 * REST's /v2/print checks it by its schema, GraphQL's printOrder and validateOrder by the same
 * schema in the service: the same bad input is refused the same way, code and field paths alike,
 * over real HTTP. None of these orders reaches the database's checks, so the project need not exist.
 */

const PRINT = `mutation ($input: PrintOrderInput!) { printOrder(input: $input) { message } }`;
const VALIDATE = `query ($input: PrintOrderInput!) { validateOrder(input: $input) { valid problems { code path } } }`;

/** A project id of the right form that no one created. */
const PROJECT = 'p-0000000000000000000000';

/** One bad value (or several) in an order both transports can express. */
const BAD: [string, (body: any) => void][] = [
  ['an orderId longer than the bound', (b) => (b.orderId = 'o'.repeat(201))],
  ['no projects', (b) => (b.projects = [])],
  [
    'more projects than an order takes',
    (b) => (b.projects = Array.from({ length: MAX_PROJECTS_PER_ORDER + 1 }, () => ({ ...b.projects[0] }))),
  ],
  ['a quantity of 0', (b) => (b.projects[0].quantity = 0)],
  ['a negative line total', (b) => (b.projects[0].lineItemTotal = -1)],
  ['an odd metadata.pageCount', (b) => (b.projects[0].metadata.pageCount = 25)],
  ['a metadata.pageCount as text', (b) => (b.projects[0].metadata.pageCount = '30')],
  ['a psp name longer than the bound', (b) => (b.projects[0].product = { psp: 'x'.repeat(51) })],
  ['an empty sku', (b) => (b.projects[0].product = { sku: '' })],
  ['an empty market id', (b) => (b.projects[0].product = { marketId: '' })],
  ['a photo that is no http(s) URL', (b) => (b.projects[0].photos = [{ url: 'ftp://example.com/1.jpg' }])],
  ['a coupon code longer than the bound', (b) => (b.payment.coupon.code = 'c'.repeat(101))],
  ['a payment reference longer than the bound', (b) => (b.payment.reference = 'r'.repeat(201))],
  ['an empty postcode', (b) => (b.user.address.postcode = '')],
  ['a three-letter country', (b) => (b.user.address.countryIso2 = 'DEU')],
  ['an address line longer than the bound', (b) => (b.user.address.line1 = 'l'.repeat(301))],
  [
    'several fields at once',
    (b) => {
      b.projects[0].quantity = 0;
      b.payment.grandTotal = -1;
      b.user.telephone = 't'.repeat(51);
    },
  ],
];

function changed<T>(value: T, change: (copy: any) => void): T {
  const copy = structuredClone(value);
  change(copy);
  return copy;
}

describe('the print input refused alike by REST and GraphQL', () => {
  let api: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    auth = serviceHeader((await api.createClient('One shape shop')).credentials.dev);
  });
  afterAll(async () => {
    await api?.stop();
  });

  it.each(BAD)(
    '%s: the same code and field paths from /v2/print, printOrder and validateOrder',
    async (_what, change) => {
      const input = changed(printBody(`shape-${_what.replace(/\W+/g, '-')}`, PROJECT), change);
      const rest = await post(api.url, '/v2/print', input, auth);
      expect(rest.status, JSON.stringify(rest.body)).toBe(400);
      const restPaths = rest.body.errors.map((e: { path: string }) => e.path).sort();
      expect(restPaths.length).toBeGreaterThan(0);

      const printed = await graphql(api.url, auth, PRINT, { input });
      expect(printed.data, JSON.stringify(printed)).toBeNull();
      const error = printed.errors[0].extensions;
      expect([error.code, error.errors.map((e: { path: string }) => e.path).sort()]).toEqual([
        rest.body.code,
        restPaths,
      ]);

      const validated = await graphql(api.url, auth, VALIDATE, { input });
      expect(validated.data.validateOrder.valid, JSON.stringify(validated)).toBe(false);
      expect(
        validated.data.validateOrder.problems.map((p: { code: string; path: string }) => `${p.code} ${p.path}`).sort(),
      ).toEqual(restPaths.map((path: string) => `${rest.body.code} ${path}`).sort());
    },
  );

  it('takes a GraphQL null as a member not given, as REST takes a member left out', async () => {
    const input = printBody('shape-nulls', PROJECT);
    const rest = await post(api.url, '/v2/print', input, auth);
    const withNulls = {
      ...input,
      quoteId: null,
      paymentPending: null,
      projects: [{ ...input.projects[0], product: null, photos: null }],
      user: { ...input.user, telephone: null },
    };
    const printed = await graphql(api.url, auth, PRINT, { input: withNulls });
    // Past the schema both ways: the project does not exist.
    expect(rest.body.code).toBe('NOT_FOUND');
    expect(printed.errors?.[0]?.extensions?.code, JSON.stringify(printed)).toBe(rest.body.code);
  });
});
