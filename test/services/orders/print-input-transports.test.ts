import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROJECTS_PER_ORDER } from '../../../src/domain/limits';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { graphql } from '../../support/graphql';
import { changed, printBody } from '../../support/print-fixtures';

/*
 * Issue 33: the print, quote and generate inputs are declared once (src/services/orders/print-input.ts,
 * quote-input.ts, src/services/projects/generate-input.ts) with their limits. REST checks them by
 * their schemas, GraphQL's printOrder, validateOrder, quote and generateProject by the same schemas
 * in the service: the same bad input is refused the same
 * way, code and field paths alike, over real HTTP. None of these reaches the database's checks, so
 * the project need not exist.
 */

const PRINT = `mutation ($input: PrintOrderInput!) { printOrder(input: $input) { message } }`;
const QUOTE = `mutation ($input: QuoteInput!) { quote(input: $input) { quoteId } }`;
const RECIPIENT = `mutation ($orderId: String!, $user: OrderUserInput!) {
  updateOrderRecipient(orderId: $orderId, user: $user) { orderId }
}`;
const GENERATE = `mutation ($input: GenerateProjectInput!) { generateProject(input: $input) { url } }`;
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

/** A quote both transports can express (GraphQL's marketId is text) and one bad value in it. */
const QUOTE_INPUT = {
  marketId: '0',
  countryIso2: 'DE',
  coupon: { value: 1, code: 'SUMMER' },
  lines: [{ sku: 'PB-HC-A4-P', pageCount: 24, quantity: 1 }],
};
const BAD_QUOTES: [string, (input: any) => void][] = [
  ['a three-letter country', (q) => (q.countryIso2 = 'DEU')],
  ['an empty market id', (q) => (q.marketId = '')],
  ['no lines', (q) => (q.lines = [])],
  ['a quantity of 0', (q) => (q.lines[0].quantity = 0)],
  ['an odd page count', (q) => (q.lines[0].pageCount = 25)],
  ['an empty sku', (q) => (q.lines[0].sku = '')],
  ['a negative coupon', (q) => (q.coupon.value = -1)],
  ['a coupon code longer than the bound', (q) => (q.coupon.code = 'c'.repeat(101))],
  ['an empty shipping level', (q) => (q.shippingLevel = '')],
  ['a language longer than the bound', (q) => (q.language = 'l'.repeat(36))],
];

/** A project both transports can create (GraphQL's sku and marketId are text) and one bad value in it. */
const GENERATE_INPUT = { userId: 'shape-user', sku: 'PB-HC-A4-P', psp: 'local', marketId: '0' };
const BAD_GENERATES: [string, (input: any) => void][] = [
  ['an empty psp', (g) => (g.psp = '')],
  ['a psp name longer than the bound', (g) => (g.psp = 'x'.repeat(51))],
  ['an empty market id', (g) => (g.marketId = '')],
  ['an empty sku', (g) => (g.sku = '')],
  ['a language longer than the bound', (g) => (g.language = 'l'.repeat(36))],
  ['an e-mail longer than the bound', (g) => (g.email = `${'e'.repeat(400)}@example.com`)],
  ['a photo that is no http(s) URL', (g) => (g.photos = [{ url: 'ftp://example.com/1.jpg' }])],
  ['a callback longer than the bound', (g) => (g.callback = `https://example.com/${'c'.repeat(2100)}`)],
];

/** REST's 400 and GraphQL's error for the same input: the same code, the same field paths. */
function expectSameRefusal(rest: { status: number; body: any }, answer: any): string[] {
  expect(rest.status, JSON.stringify(rest.body)).toBe(400);
  const paths = rest.body.errors.map((e: { path: string }) => e.path).sort();
  expect(paths.length).toBeGreaterThan(0);
  expect(answer.data ?? null, JSON.stringify(answer)).toBeNull();
  const error = answer.errors?.[0]?.extensions;
  expect([error?.code, error?.errors?.map((e: { path: string }) => e.path).sort()], JSON.stringify(answer)).toEqual([
    rest.body.code,
    paths,
  ]);
  return paths;
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
      const restPaths = expectSameRefusal(rest, await graphql(api.url, auth, PRINT, { input }));

      const validated = await graphql(api.url, auth, VALIDATE, { input });
      expect(validated.data.validateOrder.valid, JSON.stringify(validated)).toBe(false);
      expect(
        validated.data.validateOrder.problems.map((p: { code: string; path: string }) => `${p.code} ${p.path}`).sort(),
      ).toEqual(restPaths.map((path: string) => `${rest.body.code} ${path}`).sort());
    },
  );

  it.each(BAD_QUOTES)(
    'a quote with %s: the same code and field paths from /v2/quote and quote',
    async (_what, change) => {
      const input = changed(QUOTE_INPUT, change);
      const rest = await post(api.url, '/v2/quote', input, auth);
      expectSameRefusal(rest, await graphql(api.url, auth, QUOTE, { input }));
    },
  );

  it.each(BAD_GENERATES)(
    'a project with %s: the same code and field paths from /v2/generate and generateProject',
    async (_what, change) => {
      const input = changed(GENERATE_INPUT, change);
      const rest = await post(api.url, '/v2/generate', input, auth);
      expectSameRefusal(rest, await graphql(api.url, auth, GENERATE, { input }));
    },
  );

  it.each([
    [
      'an address line longer than the bound',
      { address: { line1: 'l'.repeat(301), postcode: '1', countryIso2: 'DE' } },
    ],
    ['a three-letter country', { address: { line1: 'Street 1', postcode: '1', countryIso2: 'DEU' } }],
    [
      'a telephone longer than the bound',
      { telephone: 't'.repeat(51), address: { line1: 'S', postcode: '1', countryIso2: 'DE' } },
    ],
  ])('a recipient update with %s: the same refusal from REST and GraphQL', async (_what, user) => {
    const rest = await post(api.url, '/v2/order/update-recipient', { orderId: 'shape-recipient', user }, auth);
    expectSameRefusal(rest, await graphql(api.url, auth, RECIPIENT, { orderId: 'shape-recipient', user }));
  });

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
