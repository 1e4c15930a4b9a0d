import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../../src/db/entities';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { waitFor } from '../../support/wait';
import { graphql as graphqlAt } from '../../support/graphql';

/*
 * Before the order: quotes priced from the built book, shipping levels with delivery ranges, and
 * the order held to its quote, its page count and its address, over real HTTP and PostgreSQL.
 */

const cents = (amount: number) => Math.round(amount * 100);

describe('quotes, shipping levels and the checks of an order before it is written', () => {
  let api: TestService;
  let auth: Record<string, string>;
  let live: Record<string, string>;
  let other: Record<string, string>;
  let apiKey: string;

  beforeAll(async () => {
    api = await startTestService();
    const client = await api.createClient('Checkout shop');
    auth = serviceHeader(client.credentials.dev);
    apiKey = client.credentials.dev.apiKey;
    live = serviceHeader(client.credentials.prod);
    other = serviceHeader((await api.createClient('Other shop')).credentials.dev);
  });
  afterAll(() => api?.stop());

  const graphql = (query: string, variables: Record<string, unknown>, headers = auth) =>
    graphqlAt(api.url, headers, query, variables);
  const db = async () => (await api.orm()).em.getConnection();
  const count = async (table: string) =>
    Number((await (await db()).execute(`SELECT count(*) AS n FROM ${table}`))[0].n);
  /** Rows an order of these projects would write (other tests' fulfilments go on writing their own events meanwhile). */
  const rowCounts = async (...projectIds: string[]) => {
    const ids = projectIds.map((id) => `'${id}'`).join(',');
    return {
      orders: await count('orders'),
      lines: await count('order_lines'),
      events: await count(`status_events WHERE subject_id IN (${ids}) OR split_part(subject_id, '/', 2) IN (${ids})`),
      photos: await count('photos'),
    };
  };
  const quote = (body: Record<string, unknown>, headers = auth) => post(api.url, '/v2/quote', body, headers);
  const addPages = (projectId: string, after: number) =>
    graphql('mutation ($id: String!, $after: Int!) { addPages(projectId: $id, after: $after) { pages { number } } }', {
      id: projectId,
      after,
    });

  /** A print body that pays exactly what the quote says, with the quote's level. */
  const bodyFromQuote = (orderId: string, projectId: string, q: any, method = q.shippingLevel) => {
    const body: any = printBody(orderId, projectId);
    body.quoteId = q.quoteId;
    body.projects[0].lineItemTotal = q.lines[0].lineTotal;
    body.projects[0].quantity = q.lines[0].quantity;
    body.payment.shipping = { method, cost: q.shipping };
    body.payment.coupon = { code: 'SUMMER', value: q.coupon };
    body.payment.grandTotal = q.grandTotal;
    return body;
  };

  it('prices a project from its book: two more pages cost twice the extra-page price, tax included at the destination rate', async () => {
    const projectId = await editableProject(api, auth, { userId: 'pages' });
    const before = await quote({ marketId: 0, countryIso2: 'DE', lines: [{ projectId, quantity: 3 }] });
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    const [line] = before.body.lines;
    expect(line).toMatchObject({
      projectId,
      sku: 'PB-HC-A4-P',
      basePages: 24,
      basePrice: 34.99,
      extraCostPerPage: 0.89,
      quantity: 3,
    });
    expect(cents(line.lineTotal)).toBe((cents(line.basePrice) + line.extraPages * cents(line.extraCostPerPage)) * 3);

    expect((await addPages(projectId, line.pageCount)).errors).toBeUndefined();
    const after = await quote({ marketId: 0, countryIso2: 'DE', lines: [{ projectId, quantity: 3 }] });
    expect(after.body.lines[0].pageCount).toBe(line.pageCount + 2);
    expect(after.body.lines[0].extraPages).toBe(line.extraPages + 2);
    expect(cents(after.body.lines[0].lineTotal) - cents(line.lineTotal)).toBe(2 * 89 * 3);

    // Germany: 19 % inside the prices, split out per line and on shipping.
    const q = after.body;
    expect(q).toMatchObject({
      currency: 'EUR',
      pricesIncludeTax: true,
      taxRate: 19,
      shippingLevel: 'standard',
      shipping: 4.95,
    });
    expect(q.lines[0].tax).toBe(Math.round((cents(q.lines[0].lineTotal) * 19) / 119) / 100);
    expect(cents(q.tax)).toBe(cents(q.lines[0].tax) + Math.round((495 * 19) / 119));
    expect(cents(q.grandTotal)).toBe(cents(q.subTotal) + cents(q.shipping));
    expect(q.quoteId).toMatch(/^q_[A-Za-z0-9]{24}$/);
    expect(q.expiresAt - Date.now() / 1000).toBeGreaterThan(23 * 3600);
  });

  it('refuses what it cannot price with a 400 naming the field', async () => {
    const sku = { sku: 'PB-HC-A4-P', pageCount: 30, quantity: 1 };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ marketId: 0, countryIso2: 'US', lines: [sku] }, 'COUNTRY_NOT_SHIPPED', 'countryIso2'],
      [{ marketId: 0, countryIso2: 'XX', lines: [sku] }, 'UNKNOWN_COUNTRY', 'countryIso2'],
      [{ marketId: 'mars', countryIso2: 'DE', lines: [sku] }, 'UNKNOWN_MARKET', 'marketId'],
      [{ marketId: 0, countryIso2: 'DE', lines: [{ ...sku, sku: 'NOPE' }] }, 'UNKNOWN_SKU', 'lines[0].sku'],
      [
        { marketId: 0, countryIso2: 'DE', shippingLevel: 'teleport', lines: [sku] },
        'UNKNOWN_SHIPPING_LEVEL',
        'shippingLevel',
      ],
      [
        { marketId: 0, countryIso2: 'IS', shippingLevel: 'express', lines: [sku] },
        'SHIPPING_LEVEL_UNAVAILABLE',
        'shippingLevel',
      ],
      [{ marketId: 0, countryIso2: 'DE', lines: [{ ...sku, pageCount: 500 }] }, 'PAGE_LIMIT', 'lines[0].pageCount'],
      [{ marketId: 0, countryIso2: 'DE', coupon: { value: 1000 }, lines: [sku] }, 'COUPON_TOO_LARGE', 'coupon.value'],
      [{ marketId: 0, countryIso2: 'DE', coupon: { value: 1.001 }, lines: [sku] }, 'VALIDATION_FAILED', 'coupon.value'],
      [{ marketId: 0, countryIso2: 'DE', lines: [{ quantity: 1 }] }, 'VALIDATION_FAILED', 'lines[0].sku'],
    ];
    const quotes = await count('quotes');
    for (const [body, code, field] of cases) {
      const response = await quote(body);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(response.body.code).toBe(code);
      expect(response.body.errors.map((e: any) => e.path)).toEqual([field]);
    }
    expect(await count('quotes')).toBe(quotes);
  });

  it('lists every level that reaches the destination; the delivery range moves with the level', async () => {
    const response = await quote({
      marketId: 'eu',
      countryIso2: 'DE',
      language: 'de',
      lines: [{ sku: 'PB-HC-A4-P', pageCount: 24, quantity: 1 }],
    });
    const levels = Object.fromEntries(response.body.shippingLevels.map((l: any) => [l.code, l]));
    expect(Object.keys(levels)).toEqual(['standard', 'express', 'overnight']);
    expect(levels.overnight.name).toBe('Über Nacht');
    const { standard, express, overnight } = levels;
    expect(standard.productionDays).toBe(5);
    expect(standard.delivery.latest > express.delivery.latest).toBe(true);
    expect(express.delivery.earliest >= overnight.delivery.earliest).toBe(true);
    expect(standard.delivery.earliest <= standard.delivery.latest).toBe(true);
    expect(standard.delivery.earliest > new Date().toISOString().slice(0, 10)).toBe(true);
    for (const level of [standard, express, overnight]) {
      expect(cents(level.grandTotal)).toBe(cents(response.body.subTotal) + cents(level.cost));
      // Business days only: no delivery falls on a weekend.
      for (const day of [level.delivery.earliest, level.delivery.latest])
        expect([0, 6]).not.toContain(new Date(`${day}T00:00:00Z`).getUTCDay());
    }
    // Iceland is in the market but only the standard level goes there, later than to Germany.
    const iceland = await quote({
      marketId: 'eu',
      countryIso2: 'IS',
      lines: [{ sku: 'PB-HC-A4-P', pageCount: 24, quantity: 1 }],
    });
    expect(iceland.body.shippingLevels.map((l: any) => l.code)).toEqual(['standard']);
    expect(iceland.body.shippingLevels[0].delivery.latest > standard.delivery.latest).toBe(true);
    expect(iceland.body.taxRate).toBe(0);
  });

  it('answers the same quote over GraphQL, and the same refusals with extensions.code', async () => {
    const input = {
      marketId: 'uk',
      countryIso2: 'IE',
      shippingLevel: 'Express',
      coupon: { value: 1.5 },
      lines: [{ sku: 'PB-SC-A5-P', pageCount: 40, quantity: 4 }],
    };
    const rest = (await quote(input)).body;
    const fields =
      'quoteId expiresAt currency shippingLevel subTotal shipping coupon tax grandTotal lines { pageCount extraPages lineTotal discount tax } shippingLevels { code delivery { earliest latest } }';
    const viaGraphql = await graphql(`mutation ($input: QuoteInput!) { quote(input: $input) { ${fields} } }`, {
      input,
    });
    const { quoteId, expiresAt, ...answer } = viaGraphql.data.quote;
    expect(quoteId).not.toBe(rest.quoteId);
    expect(Math.abs(Date.parse(expiresAt) / 1000 - rest.expiresAt)).toBeLessThan(60);
    expect(answer).toEqual({
      currency: rest.currency,
      shippingLevel: 'express',
      subTotal: rest.subTotal,
      shipping: rest.shipping,
      coupon: 1.5,
      tax: rest.tax,
      grandTotal: rest.grandTotal,
      lines: rest.lines.map(({ pageCount, extraPages, lineTotal, discount, tax }: any) => ({
        pageCount,
        extraPages,
        lineTotal,
        discount,
        tax,
      })),
      shippingLevels: rest.shippingLevels.map(({ code, delivery }: any) => ({ code, delivery })),
    });
    // 4 × (12.99 + 16 × 0.39) in GBP; Ireland from the UK is an export: no tax.
    expect(rest.lines[0].lineTotal).toBe(76.92);
    expect(rest.tax).toBe(0);
    expect(cents(rest.grandTotal)).toBe(7692 + 899 - 150);

    const refused = await graphql('mutation ($input: QuoteInput!) { quote(input: $input) { quoteId } }', {
      input: { ...input, countryIso2: 'FR' },
    });
    expect(refused.errors.map((e: any) => [e.extensions.code, e.extensions.errors[0].path])).toEqual([
      ['COUNTRY_NOT_SHIPPED', 'countryIso2'],
    ]);
  });

  it("lists each market's shipping levels in the market listing, REST and GraphQL alike", async () => {
    const rest = await post(api.url, '/api/v2/misc/get-market.php', { env: 'dev', key: apiKey, language: 'fr' });
    const uk = rest.body.results.find((m: any) => m.marketIdAlt === 'uk');
    expect(uk.shippingLevels.map((l: any) => [l.code, l.default, l.price])).toEqual([
      ['standard', true, 3.99],
      ['express', false, 8.99],
      ['overnight', false, 14.99],
    ]);
    expect(uk.shippingLevels[2]).toMatchObject({
      name: 'Livraison en 24 h',
      destinations: [{ isoCode2: 'GB', transitDays: { min: 1, max: 1 } }],
    });
    const gql = await graphql(
      '{ markets(language: "fr") { results { marketIdAlt shippingLevels { code name default price destinations { isoCode2 transitDays { min max } } } } } }',
      {},
    );
    expect(gql.data.markets.results.find((m: any) => m.marketIdAlt === 'uk').shippingLevels).toEqual(uk.shippingLevels);
  });

  it('accepts an order that matches its quote and refuses one with a changed line, naming what differs', async () => {
    const projectId = await editableProject(api, auth, { email: 'quoted@example.com' });
    const q = (
      await quote({
        marketId: 0,
        countryIso2: 'DE',
        shippingLevel: 'express',
        coupon: { value: 3 },
        lines: [{ projectId, quantity: 2 }],
      })
    ).body;
    expect(q.shippingLevel).toBe('express');
    const foreignProject = await editableProject(api, other, { userId: 'foreign' });

    const counts = await rowCounts(projectId, foreignProject);
    const changed = bodyFromQuote('quoted-changed', projectId, q, 'Express');
    changed.projects[0].quantity = 3;
    const refused = await post(api.url, '/v2/print', changed, auth);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.code).toBe('QUOTE_MISMATCH');
    expect(refused.body.errors.map((e: any) => e.path)).toEqual(['projects[0].quantity']);
    const otherLevel = bodyFromQuote('quoted-level', projectId, q, 'standard');
    expect((await post(api.url, '/v2/print', otherLevel, auth)).body.errors.map((e: any) => e.path)).toEqual([
      'payment.shipping.method',
    ]);
    // Another client's quote is not found, like an unknown one.
    const foreign = await post(
      api.url,
      '/v2/print',
      { ...bodyFromQuote('foreign-quote', foreignProject, q), quoteId: q.quoteId },
      other,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toEqual([expect.objectContaining({ path: 'quoteId' })]);
    expect(await rowCounts(projectId, foreignProject)).toEqual(counts);

    const accepted = await post(api.url, '/v2/print', bodyFromQuote('quoted-1', projectId, q, 'Express'), auth);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const order = await graphql(
      'query { order(orderId: "quoted-1") { shippingLevel shippingMethod quoteId warnings { code } grandTotal } }',
      {},
    );
    expect(order.data.order).toEqual({
      shippingLevel: 'express',
      shippingMethod: 'Express',
      quoteId: q.quoteId,
      warnings: [],
      grandTotal: q.grandTotal,
    });
    const history = await post(api.url, '/api/v2/user/get-order-history.php', {
      env: 'dev',
      key: apiKey,
      email: 'quoted@example.com',
    });
    expect(history.body.results[0]).toMatchObject({
      orderId: 'quoted-1',
      shippingLevel: { code: 'express', name: 'Express' },
      grandTotal: q.grandTotal,
    });
  });

  it("holds an order to the book it quoted and to the quote's expiry", async () => {
    const projectId = await editableProject(api, auth, { userId: 'grown' });
    const q = (await quote({ marketId: 0, countryIso2: 'DE', lines: [{ projectId, quantity: 1 }] })).body;
    await addPages(projectId, 0);
    const grown = await post(api.url, '/v2/print', bodyFromQuote('grown-1', projectId, q), auth);
    expect(grown.status).toBe(409);
    expect(grown.body.code).toBe('QUOTE_MISMATCH');
    expect(grown.body.errors).toEqual([
      {
        path: 'projects[0].id',
        message: `the book has ${q.lines[0].pageCount + 2} pages; the quote priced ${q.lines[0].pageCount}`,
      },
    ]);

    const fresh = (await quote({ marketId: 0, countryIso2: 'DE', lines: [{ projectId, quantity: 1 }] })).body;
    await (await db()).execute(`UPDATE quotes SET expires_at = now() - interval '1 second' WHERE id = ?`, [
      fresh.quoteId,
    ]);
    const expired = await post(api.url, '/v2/print', bodyFromQuote('grown-2', projectId, fresh), auth);
    expect(expired.status).toBe(409);
    expect(expired.body.code).toBe('QUOTE_EXPIRED');

    // A week after expiry the quote is removed by the next quote of its tenant, and is then not found.
    await (await db()).execute(`UPDATE quotes SET expires_at = now() - interval '8 days' WHERE id = ?`, [
      fresh.quoteId,
    ]);
    await quote({ marketId: 0, countryIso2: 'DE', lines: [{ sku: 'PB-HC-15-S', pageCount: 24, quantity: 1 }] });
    expect(await count(`quotes WHERE id = '${fresh.quoteId}'`)).toBe(0);
    const gone = await post(api.url, '/v2/print', bodyFromQuote('grown-3', projectId, fresh), auth);
    expect(gone.status).toBe(404);
    expect(gone.body.errors).toEqual([expect.objectContaining({ path: 'quoteId' })]);
  });

  it('refuses an order whose metadata.pageCount is stale, and writes nothing', async () => {
    const projectId = await editableProject(api, auth, { userId: 'stale' });
    const pages = (await quote({ marketId: 0, countryIso2: 'DE', lines: [{ projectId, quantity: 1 }] })).body.lines[0]
      .pageCount;
    await addPages(projectId, pages);
    const counts = await rowCounts(projectId);
    for (const [metadata, field] of [
      [{ pageCount: pages }, 'projects[0].metadata.pageCount'],
      [{ extraPages: pages - 24 }, 'projects[0].metadata.extraPages'],
    ] as const) {
      const body: any = printBody(`stale-${field}`, projectId);
      body.projects[0].metadata = metadata;
      const response = await post(api.url, '/v2/print', body, auth);
      expect(response.status, JSON.stringify(response.body)).toBe(409);
      expect(response.body.code).toBe('PAGE_COUNT_MISMATCH');
      expect(response.body.errors.map((e: any) => e.path)).toEqual([field]);
    }
    expect(await rowCounts(projectId)).toEqual(counts);
    const project = await graphql('query ($id: String!) { project(id: $id) { status { project } } }', {
      id: projectId,
    });
    expect(project.data.project.status.project).toBe('editable');

    const current: any = printBody('stale-current', projectId);
    current.projects[0].metadata = { pageCount: pages + 2, extraPages: pages + 2 - 24 };
    expect((await post(api.url, '/v2/print', current, auth)).status).toBe(200);
  });

  it('validateOnly runs every check and writes nothing; GraphQL validateOrder answers the same', async () => {
    const projectId = await editableProject(api, auth, { userId: 'dry-run' });
    const counts = await rowCounts(projectId);
    const good = { ...printBody('dry-1', projectId), validateOnly: true };
    expect((await post(api.url, '/v2/print', good, auth)).body).toEqual({ valid: true, problems: [] });

    const bad: any = { ...printBody('dry-2', projectId), validateOnly: true };
    bad.user.address.postcode = '1011';
    bad.user.telephone = '12';
    bad.payment.grandTotal = 99;
    const checked = await post(api.url, '/v2/print', bad, auth);
    expect(checked.status).toBe(200);
    expect(checked.body.valid).toBe(false);
    expect(checked.body.problems.map((p: any) => [p.code, p.path])).toEqual([
      ['INVALID_POSTCODE', 'user.address.postcode'],
      ['INVALID_PHONE', 'user.telephone'],
      ['TOTALS_MISMATCH', 'payment.grandTotal'],
    ]);
    const { validateOnly: _, ...input } = bad;
    const viaGraphql = await graphql(
      'query ($input: PrintOrderInput!) { validateOrder(input: $input) { valid problems { code path } } }',
      { input },
    );
    expect(viaGraphql.data.validateOrder).toEqual({
      valid: false,
      problems: checked.body.problems.map(({ code, path: p }: any) => ({ code, path: p })),
    });

    expect(await rowCounts(projectId)).toEqual(counts);
    expect(await count("orders WHERE order_id LIKE 'dry-%'")).toBe(0);
    const project = await graphql('query ($id: String!) { project(id: $id) { status { project } } }', {
      id: projectId,
    });
    expect(project.data.project.status.project).toBe('editable');
    // The order validated is the order accepted.
    expect((await post(api.url, '/v2/print', printBody('dry-1', projectId), auth)).status).toBe(200);
  });

  it('checks the address before writing: each failure a 422 naming the field', async () => {
    const eu = await editableProject(api, auth, { userId: 'addresses' });
    const us = await editableProject(api, auth, { userId: 'addresses-us', marketId: 2 });
    const usBody = (orderId: string) => {
      const body: any = printBody(orderId, us);
      body.projects[0].lineItemTotal = 36.99;
      body.payment = { grandTotal: 42.98, shipping: { method: 'standard', cost: 5.99 } };
      body.user.telephone = '(650) 253-0000';
      body.user.address = {
        line1: '1600 Amphitheatre Pkwy',
        city: 'Mountain View',
        postcode: '94043',
        countryIso2: 'US',
      };
      return body;
    };
    const cases: [string, string, (body: any) => void, string, string][] = [
      ['eu', 'postcode', (b) => (b.user.address.postcode = '1011'), 'INVALID_POSTCODE', 'user.address.postcode'],
      ['eu', 'phone', (b) => (b.user.telephone = 'call me'), 'INVALID_PHONE', 'user.telephone'],
      [
        'eu',
        'outside the market',
        (b) => Object.assign(b.user.address, { countryIso2: 'US', postcode: '94043', state: 'CA' }),
        'COUNTRY_NOT_SHIPPED',
        'user.address.countryIso2',
      ],
      [
        'eu',
        'level not reaching',
        (b) =>
          Object.assign(b.user.address, { countryIso2: 'IS', postcode: '101' }) &&
          (b.payment.shipping.method = 'overnight'),
        'SHIPPING_LEVEL_UNAVAILABLE',
        'payment.shipping.method',
      ],
      ['us', 'no state', () => undefined, 'STATE_REQUIRED', 'user.address.state'],
      ['us', 'unknown state', (b) => (b.user.address.state = 'Narnia'), 'INVALID_STATE', 'user.address.state'],
    ];
    const counts = await rowCounts(eu, us);
    for (const [market, name, mutate, code, field] of cases) {
      const body: any = market === 'eu' ? printBody(`address-${name}`, eu) : usBody(`address-${name}`);
      mutate(body);
      const response = await post(api.url, '/v2/print', body, auth);
      expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(422);
      expect(response.body.code).toBe(code);
      expect(response.body.errors.map((e: any) => e.path)).toEqual([field]);
    }
    expect(await rowCounts(eu, us)).toEqual(counts);

    const good = usBody('address-ok');
    good.user.address.state = 'california';
    expect((await post(api.url, '/v2/print', good, auth)).status).toBe(200);
    const [row] = await (await db()).execute(
      `SELECT telephone, shipping_address->>'state' AS state, shipping_level FROM orders WHERE order_id = 'address-ok'`,
    );
    expect(row).toEqual({ telephone: '+16502530000', state: 'CA', shipping_level: 'standard' });
  });

  it('takes an unknown shipping method as the default level with a warning; the printer job carries the level', async () => {
    const projectId = await editableProject(api, auth, { userId: 'legacy' });
    const legacy: any = printBody('legacy-1', projectId);
    legacy.payment.shipping.method = 'DHL Paket';
    expect((await post(api.url, '/v2/print', legacy, auth)).status).toBe(200);
    const order = await graphql('query { order(orderId: "legacy-1") { shippingLevel warnings { code message } } }', {});
    expect(order.data.order).toEqual({
      shippingLevel: 'standard',
      warnings: [
        {
          code: 'UNKNOWN_SHIPPING_METHOD',
          message: 'payment.shipping.method "DHL Paket" is not a shipping level of market eu; shipped with "standard"',
        },
      ],
    });

    const liveProject = await editableProject(api, live, { userId: 'live' });
    const express: any = printBody('live-express', liveProject);
    express.payment.shipping.method = 'EXPRESS';
    expect((await post(api.url, '/v2/print', express, live)).status).toBe(200);
    const lineOf = async () => (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: liveProject });
    await waitFor(async () => (await lineOf()).status === 'sent printjob', 150_000, 'sent printjob');
    const job = JSON.parse(
      await readFile(path.join(api.config.dataDir, 'printjobs', 'live-express', liveProject, 'job.json'), 'utf8'),
    );
    expect(job).toMatchObject({
      orderId: 'live-express',
      shippingLevel: 'express',
      shipping: { phone: '+49301234567', countryIso2: 'DE' },
    });
  }, 180_000);
});
