import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../../../src/db/entities';
import { MAX_COPIES, MAX_MONEY } from '../../../src/domain/limits';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { changed, editableProject, printBody } from '../../support/print-fixtures';
import { waitFor } from '../../support/wait';
import { graphql as graphqlAt } from '../../support/graphql';

/*
 * Issue 39: every number of a quote, a print and validateOnly has a published bound, the same over
 * REST and GraphQL, each refusal a 400 naming the field; inputs that answered 500 (a quantity of
 * 2^31, an amount of 1e10, deep metadata under an Idempotency-Key, forged cursors) answer 400; and
 * the money gaps (a coupon over the subtotal, an odd quoted page count, a sku quote's page count on
 * a rebuilt book) are closed. Real HTTP, real PostgreSQL.
 */

const PRINT = `mutation ($input: PrintOrderInput!) { printOrder(input: $input) { message } }`;
const VALIDATE = `query ($input: PrintOrderInput!) { validateOrder(input: $input) { valid problems { code path } } }`;
const QUOTE = `mutation ($input: QuoteInput!) { quote(input: $input) { quoteId lines { pageCount } } }`;

describe('numeric bounds of quote, print and validateOnly, REST and GraphQL alike', () => {
  let api: TestService;
  let auth: Record<string, string>;
  let apiKey: string;
  let projectId: string;
  let photos: PhotoServer;

  beforeAll(async () => {
    // Downloads wait long enough that a photo host that never answers keeps a book building for a whole test on a busy machine.
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      PHOTO_DOWNLOAD_TIMEOUT: '120s',
      BUILD_DOWNLOAD_DEADLINE: '180s',
    });
    const client = await api.createClient('Bounded shop');
    auth = serviceHeader(client.credentials.dev);
    apiKey = client.credentials.dev.apiKey;
    projectId = await editableProject(api, auth, { userId: 'bounded' });
    photos = await startPhotoServer({
      '/1.jpg': { body: await makePhoto({ width: 1600, height: 1200, takenAt: '2024:05:01 10:00:00' }) },
      '/2.jpg': { body: await makePhoto({ width: 1600, height: 1200, takenAt: '2024:05:02 10:00:00' }) },
    });
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  const graphql = (query: string, variables: Record<string, unknown>) => graphqlAt(api.url, auth, query, variables);
  const count = async (table: string) =>
    Number((await (await api.orm()).em.getConnection().execute(`SELECT count(*) AS n FROM ${table}`))[0].n);
  const errorOf = (answer: any) => [
    answer.errors?.[0]?.extensions?.code,
    answer.errors?.[0]?.extensions?.errors?.map((e: any) => e.path),
  ];

  /** One hostile value at one field of a valid order, and the field that must be named. */
  const hostile: [string, (body: any) => void, string][] = [
    ['quantity 2^31', (b) => (b.projects[0].quantity = 2 ** 31), 'projects[0].quantity'],
    ['quantity 2^31 - 1 (a GraphQL Int)', (b) => (b.projects[0].quantity = 2 ** 31 - 1), 'projects[0].quantity'],
    ['quantity over the quote cap', (b) => (b.projects[0].quantity = MAX_COPIES + 1), 'projects[0].quantity'],
    ['quantity 0', (b) => (b.projects[0].quantity = 0), 'projects[0].quantity'],
    ['lineItemTotal 1e10', (b) => (b.projects[0].lineItemTotal = 1e10), 'projects[0].lineItemTotal'],
    ['lineItemTotal 1e308', (b) => (b.projects[0].lineItemTotal = 1e308), 'projects[0].lineItemTotal'],
    [
      'lineItemTotal over MAX_MONEY',
      (b) => (b.projects[0].lineItemTotal = MAX_MONEY + 0.01),
      'projects[0].lineItemTotal',
    ],
    ['grandTotal 1e10', (b) => (b.payment.grandTotal = 1e10), 'payment.grandTotal'],
    ['grandTotal negative', (b) => (b.payment.grandTotal = -1), 'payment.grandTotal'],
    ['coupon.value 1e10', (b) => (b.payment.coupon.value = 1e10), 'payment.coupon.value'],
    ['shipping.cost 1e10', (b) => (b.payment.shipping.cost = 1e10), 'payment.shipping.cost'],
    ['shipping.cost negative', (b) => (b.payment.shipping.cost = -5), 'payment.shipping.cost'],
    ['metadata.pageCount odd', (b) => (b.projects[0].metadata.pageCount = 25), 'projects[0].metadata.pageCount'],
    ['metadata.pageCount 2^31', (b) => (b.projects[0].metadata.pageCount = 2 ** 31), 'projects[0].metadata.pageCount'],
    [
      'metadata.extraPages negative',
      (b) => (b.projects[0].metadata.extraPages = -1),
      'projects[0].metadata.extraPages',
    ],
    ['metadata.extraPages 1e10', (b) => (b.projects[0].metadata.extraPages = 1e10), 'projects[0].metadata.extraPages'],
  ];

  it.each(hostile)(
    'REST print and validateOnly refuse %s with a 400 naming the field, and write nothing',
    async (_what, change, path) => {
      const orders = await count('orders');
      for (const validateOnly of [false, true]) {
        const body = changed({ ...printBody(`bound-rest-${path}-${validateOnly}`, projectId), validateOnly }, change);
        const response = await post(api.url, '/v2/print', body, auth);
        expect(response.status, JSON.stringify(response.body)).toBe(400);
        expect(response.body.code).toBe('VALIDATION_FAILED');
        expect(response.body.errors.map((e: any) => e.path)).toContain(path);
      }
      expect(await count('orders')).toBe(orders);
    },
  );

  it.each(hostile.filter(([what]) => what !== 'quantity 2^31'))(
    'GraphQL printOrder and validateOrder refuse %s naming the field, as REST does',
    async (_what, change, path) => {
      const orders = await count('orders');
      const input = changed(printBody(`bound-gql-${path}`, projectId), change);
      const printed = await graphql(PRINT, { input });
      expect(printed.data, JSON.stringify(printed)).toBeNull();
      expect(errorOf(printed)).toEqual(['VALIDATION_FAILED', [path]]);
      // validateOnly and the real call agree on every input.
      const validated = await graphql(VALIDATE, { input });
      expect(validated.data?.validateOrder.valid, JSON.stringify(validated)).toBe(false);
      expect(validated.data.validateOrder.problems).toContainEqual({ code: 'VALIDATION_FAILED', path });
      expect(await count('orders')).toBe(orders);
    },
  );

  it('refuses a GraphQL quantity of 2^31 at the schema (an Int is 32-bit), never a 500', async () => {
    const answer = await post(
      api.url,
      '/graphql',
      {
        query: PRINT,
        variables: { input: changed(printBody('bound-int', projectId), (b) => (b.projects[0].quantity = 2 ** 31)) },
      },
      auth,
    );
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.errors[0].extensions.code).not.toBe('INTERNAL');
  });

  it('refuses line totals that add up past the bound, naming projects', async () => {
    const second = await editableProject(api, auth, { userId: 'bounded-2' });
    const body: any = printBody('bound-sum', projectId);
    const half = MAX_MONEY / 2 + 1;
    body.projects = [
      { ...body.projects[0], lineItemTotal: half },
      { ...body.projects[0], id: second, lineItemTotal: half },
    ];
    body.payment = { grandTotal: 1 };
    const response = await post(api.url, '/v2/print', body, auth);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.errors.map((e: any) => e.path)).toEqual(['projects']);
  });

  it('refuses a coupon larger than the line items with 422 COUPON_TOO_LARGE naming payment.coupon.value, REST and GraphQL', async () => {
    const orders = await count('orders');
    // 34.99 of books + 5 shipping − 50 coupon: a grand total of −10.01, accepted before.
    const body = changed(printBody('coupon-too-large', projectId), (b) => {
      b.payment.coupon.value = 50;
      b.payment.grandTotal = 0;
    });
    const rest = await post(api.url, '/v2/print', body, auth);
    expect(rest.status, JSON.stringify(rest.body)).toBe(422);
    expect(rest.body.code).toBe('COUPON_TOO_LARGE');
    expect(rest.body.errors.map((e: any) => e.path)).toEqual(['payment.coupon.value']);
    expect(errorOf(await graphql(PRINT, { input: body }))).toEqual(['COUPON_TOO_LARGE', ['payment.coupon.value']]);
    expect(await count('orders')).toBe(orders);
  });

  it('checks totals in exact money: 1.005 is 1.01 in the check and in the stored line', async () => {
    // As a float, 1.005 × 100 is 100.49999…: the float rounding made the line 1.00 and refused 1.01.
    const body = changed(printBody('exact-money', await editableProject(api, auth, { userId: 'exact' })), (b) => {
      b.projects[0].lineItemTotal = 1.005;
      b.payment = { grandTotal: 1.01 };
    });
    const response = await post(api.url, '/v2/print', body, auth);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const [row] = await (await api.orm()).em
      .getConnection()
      .execute(
        `SELECT o.sub_total, o.grand_total, l.line_item_total FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.order_id = 'exact-money'`,
      );
    expect([Number(row.sub_total), Number(row.grand_total), Number(row.line_item_total)]).toEqual([1.01, 1.01, 1.01]);
  });

  it('refuses deeply nested metadata sent with an Idempotency-Key with a 400, over REST and GraphQL', async () => {
    // Written as text: JSON.stringify itself cannot write an object this deep.
    const depth = 20_000;
    const deep = `${'{"d":'.repeat(depth)}{"leaf":1}${'}'.repeat(depth)}`;
    const withDeepMetadata = (value: unknown) => JSON.stringify(value).replace('"DEEP"', deep);
    const body: any = printBody('deep-metadata', projectId);
    body.projects[0].metadata = 'DEEP';
    const response = await request(api.url, 'POST', '/v2/print', {
      rawBody: withDeepMetadata(body),
      headers: { ...auth, 'idempotency-key': 'deep-metadata-1' },
    });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(400);
    expect(response.body.errors.map((e: any) => e.path)).toEqual(['projects[0].metadata']);
    const shallow: any = printBody('deep-metadata', projectId);
    shallow.projects[0].metadata = { d: { d: { leaf: 1 } } };
    expect((await post(api.url, '/v2/print', shallow, { ...auth, 'idempotency-key': 'deep-metadata-2' })).status).toBe(
      200,
    );

    const query = `mutation ($input: PrintOrderInput!, $key: String) { printOrder(input: $input, idempotencyKey: $key) { message } }`;
    const variables = { input: { ...body, orderId: 'deep-metadata-gql' }, key: 'deep-metadata-3' };
    const viaGraphql = await request(api.url, 'POST', '/graphql', {
      rawBody: withDeepMetadata({ query, variables }),
      headers: auth,
    });
    expect(viaGraphql.status, JSON.stringify(viaGraphql.body).slice(0, 300)).toBeLessThan(500);
    expect(errorOf(viaGraphql.body)).toEqual(['VALIDATION_FAILED', ['projects[0].metadata']]);
  });

  /** Cursors a client can forge: not ours, not a keyset of (createdAt, id), or values PostgreSQL refuses. */
  const forged = [
    'not-a-cursor',
    '%%%',
    Buffer.from('["x","y"]').toString('base64url'),
    Buffer.from('[1,2]').toString('base64url'),
    Buffer.from('[null,null]').toString('base64url'),
    Buffer.from('[{"a":1},[]]').toString('base64url'),
    Buffer.from('["2026-01-01T00:00:00.000Z","not-a-uuid"]').toString('base64url'),
    Buffer.from('["2026-01-01T00:00:00.000Z",5]').toString('base64url'),
    Buffer.from('["2026-13-45T00:00:00.000Z","00000000-0000-4000-8000-000000000000"]').toString('base64url'),
    Buffer.from('["0000-01-01T00:00:00.000Z","00000000-0000-4000-8000-000000000000"]').toString('base64url'),
    Buffer.from('["2026-01-01T00:00:00.000Z","00000000-0000-4000-8000-000000000000","x"]').toString('base64url'),
    Buffer.from('{"a":1}').toString('base64url'),
  ];

  it.each(forged)(
    'answers 400 naming the cursor for the forged order-list cursor %s, over REST, GraphQL and eCommerce',
    async (cursor) => {
      const list = await request(api.url, 'GET', `/v2/order/list?cursor=${encodeURIComponent(cursor)}`, {
        headers: auth,
      });
      expect(list.status, JSON.stringify(list.body)).toBe(400);
      expect(list.body.errors.map((e: any) => e.path)).toEqual(['cursor']);

      const orders = await graphql('query ($after: String) { orders(after: $after) { edges { cursor } } }', {
        after: cursor,
      });
      expect(errorOf(orders)).toEqual(['UNKNOWN_CURSOR', ['after']]);

      const history = await post(api.url, '/api/v2/user/get-order-history.php', {
        env: 'dev',
        key: apiKey,
        email: 'ada@example.com',
        cursor,
      });
      expect(history.status, JSON.stringify(history.body)).toBe(400);
      expect(history.body.errors.map((e: any) => e.path)).toEqual(['cursor']);
    },
  );

  it('still pages with the cursors it issued', async () => {
    const first = await graphql(
      'query { orders(first: 1) { edges { cursor node { orderId } } pageInfo { endCursor hasNextPage } } }',
      {},
    );
    expect(first.errors).toBeUndefined();
    const { endCursor } = first.data.orders.pageInfo;
    const next = await graphql(
      'query ($after: String) { orders(first: 1, after: $after) { edges { node { orderId } } } }',
      { after: endCursor },
    );
    expect(next.errors).toBeUndefined();
    const rest = await request(api.url, 'GET', `/v2/order/list?limit=1&cursor=${encodeURIComponent(endCursor)}`, {
      headers: auth,
    });
    expect(rest.status).toBe(200);
  });

  it('refuses a quote for an odd page count, or a count outside the product, REST and GraphQL alike', async () => {
    const quotes = await count('quotes');
    for (const pageCount of [25, 2 ** 31, 0]) {
      const input = { marketId: '0', countryIso2: 'DE', lines: [{ sku: 'PB-HC-A4-P', pageCount, quantity: 1 }] };
      const rest = await post(api.url, '/v2/quote', input, auth);
      expect(rest.status, JSON.stringify(rest.body)).toBe(400);
      expect(rest.body.errors.map((e: any) => e.path)).toEqual(['lines[0].pageCount']);
      if (pageCount < 2 ** 31)
        expect(errorOf(await graphql(QUOTE, { input }))).toEqual(['VALIDATION_FAILED', ['lines[0].pageCount']]);
    }
    const beyond = await graphql(QUOTE, {
      input: { marketId: '0', countryIso2: 'DE', lines: [{ sku: 'PB-HC-A4-P', pageCount: 122, quantity: 1 }] },
    });
    expect(errorOf(beyond)).toEqual(['PAGE_LIMIT', ['lines[0].pageCount']]);
    for (const [input, path] of [
      [
        { marketId: '0', countryIso2: 'DE', lines: [{ sku: 'PB-HC-A4-P', pageCount: 24, quantity: 2 ** 31 - 1 }] },
        'lines[0].quantity',
      ],
      [
        {
          marketId: '0',
          countryIso2: 'DE',
          coupon: { value: 1e10 },
          lines: [{ sku: 'PB-HC-A4-P', pageCount: 24, quantity: 1 }],
        },
        'coupon.value',
      ],
    ] as const) {
      expect(errorOf(await graphql(QUOTE, { input }))).toEqual(['VALIDATION_FAILED', [path]]);
    }
    expect(await count('quotes')).toBe(quotes);
  });

  it('refuses to hold a book still being built to a stated or quoted page count', async () => {
    // A photo host that accepts and never answers keeps the project building for the test's length.
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const made = await post(
        api.url,
        '/v2/generate',
        {
          sku: 'PB-HC-A4-P',
          psp: 'local',
          marketId: 0,
          userId: 'still-building',
          photos: [`http://127.0.0.1:${port}/a.jpg`],
        },
        auth,
      );
      const building = new URL(made.body.url).searchParams.get('id')!;
      const stated: any = printBody('building-stated', building);
      stated.projects[0].metadata = { pageCount: 24 };
      const refused = await post(api.url, '/v2/print', stated, auth);
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect([refused.body.code, refused.body.errors.map((e: any) => e.path)]).toEqual([
        'PROJECT_BUILDING',
        ['projects[0].id'],
      ]);

      const q = (
        await post(
          api.url,
          '/v2/quote',
          { marketId: 0, countryIso2: 'DE', lines: [{ sku: 'PB-HC-A4-P', pageCount: 24, quantity: 1 }] },
          auth,
        )
      ).body;
      const quoted: any = printBody('building-quoted', building);
      quoted.quoteId = q.quoteId;
      quoted.projects[0].lineItemTotal = q.lines[0].lineTotal;
      quoted.payment = { grandTotal: q.grandTotal, shipping: { method: q.shippingLevel, cost: q.shipping } };
      const mismatch = await post(api.url, '/v2/print', quoted, auth);
      expect(mismatch.status, JSON.stringify(mismatch.body)).toBe(409);
      expect([mismatch.body.code, mismatch.body.errors.map((e: any) => e.path)]).toEqual([
        'QUOTE_MISMATCH',
        ['projects[0].id'],
      ]);
    } finally {
      held.forEach((socket) => socket.destroy());
      silent.close();
    }
  });

  it("holds a sku quote's page count when the print rebuilds the book from the order's photos", async () => {
    const rebuilt = await editableProject(api, auth, { userId: 'rebuilt' });
    const q = (
      await post(
        api.url,
        '/v2/quote',
        { marketId: 0, countryIso2: 'DE', lines: [{ sku: 'PB-HC-A4-P', pageCount: 40, quantity: 1 }] },
        auth,
      )
    ).body;
    expect(q.lines[0].pageCount).toBe(40);
    const body: any = printBody('rebuilt-quoted', rebuilt);
    body.quoteId = q.quoteId;
    body.projects[0] = {
      ...body.projects[0],
      lineItemTotal: q.lines[0].lineTotal,
      quantity: 1,
      photos: [photos.url('/1.jpg'), photos.url('/2.jpg')],
    };
    body.payment = { grandTotal: q.grandTotal, shipping: { method: q.shippingLevel, cost: q.shipping } };
    const response = await post(api.url, '/v2/print', body, auth);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    // Two photos would lay out the product's 24 pages; the order paid for 40.
    const pages = await waitFor(
      async () => {
        const project = await (await api.orm()).em.fork().findOne(Project, { id: rebuilt }, { populate: ['book'] });
        return project?.book && project.status !== 'building' ? project.book.pages.length : undefined;
      },
      60_000,
      'the rebuilt book',
    );
    expect(pages).toBe(40);
  });
});
