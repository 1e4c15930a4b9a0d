import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoCatalogue, replaceCatalogue } from '../../../src/services/catalogue/catalogue-import';
import { ValidationError } from '../../../src/domain/errors';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';

const run = promisify(execFile);

/**
 * Importing a catalogue again once a client has projects (issue 39: `catalogue import` failed on a
 * foreign key, since it deleted and re-inserted the products and markets the projects point at).
 */
describe('catalogue import for a client with projects', () => {
  let api: TestService;
  let shop: IssuedClient;
  let projectId: string;

  beforeAll(async () => {
    api = await startTestService();
    shop = await api.createClient('Shop that re-imports');
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId: 'reader', sku: 'PB-HC-A4-P', psp: 'local', marketId: 0 },
      serviceHeader(shop.credentials.dev),
    );
    expect(generated.status).toBe(200);
    projectId = new URL(generated.body.url).searchParams.get('id')!;
  });
  afterAll(() => api?.stop());

  const products = async () =>
    (
      await post(api.url, '/api/v2/product/list-product.php', {
        env: 'dev',
        key: shop.credentials.dev.apiKey,
        os: 'web',
      })
    ).body.products as { sku: string; disabled: boolean }[];
  const projectStatus = async () =>
    (
      await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, {
        headers: serviceHeader(shop.credentials.dev),
      })
    ).status;
  const rowCount = async (sql: string) =>
    Number((await (await api.orm()).em.getConnection().execute(sql, [shop.clientId]))[0].n);

  it('updates products and markets in place through the CLI: new prices and names, the project keeps its rows', async () => {
    const demo = structuredClone(await loadDemoCatalogue());
    const a4 = demo.products.find((p) => p.sku === 'PB-HC-A4-P')!;
    a4.prices[0].price = 44.5;
    // Two products swap skus: the (client, sku) key must not trip half way.
    const [first, second] = demo.products.filter((p) => p.sku === 'PB-SC-15-S' || p.sku === 'PB-SC-A5-P');
    [first.sku, second.sku] = [second.sku, first.sku];
    const file = path.join(api.config.dataDir, 'again.json');
    await writeFile(file, JSON.stringify(demo));
    const projectRow = await rowCount(`SELECT product_id AS n FROM projects WHERE client_id = ? LIMIT 1`);

    const { stdout } = await run(
      'npm',
      ['run', '--silent', 'cli', '--', 'catalogue', 'import', '--client', shop.clientId, file, '--json'],
      {
        env: { ...process.env, DATABASE_URL: api.databaseUrl, DATA_DIR: api.config.dataDir, LOG_LEVEL: 'warn' },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ clientId: shop.clientId, products: demo.products.length });
    expect(await rowCount(`SELECT product_id AS n FROM projects WHERE client_id = ? LIMIT 1`)).toBe(projectRow);
    expect(await rowCount(`SELECT count(*) AS n FROM products WHERE client_id = ?`)).toBe(demo.products.length);
    expect(
      await rowCount(
        `SELECT pp.price AS n FROM product_prices pp JOIN products p ON p.id = pp.product_id JOIN markets m ON m.id = pp.market_id WHERE p.client_id = ? AND p.sku = 'PB-HC-A4-P' AND m.market_id = 0`,
      ),
    ).toBe(44.5);
    expect(await projectStatus()).toBe(200);
  }, 120_000);

  it('keeps a product the file leaves out while a project uses it, disabled (listed greyed out, not generated); deletes the ones nothing uses', async () => {
    const demo = structuredClone(await loadDemoCatalogue());
    demo.products = demo.products.filter((p) => p.sku !== 'PB-HC-A4-P' && p.sku !== 'PB-LF-40-L');
    await replaceCatalogue((await api.orm()).em.fork(), shop.clientId, demo);
    const listed = await products();
    // Listed greyed out, as a disabled product of a file is, and no longer generated.
    expect(listed.find((p) => p.sku === 'PB-HC-A4-P')).toMatchObject({ disabled: true });
    expect(listed.map((p) => p.sku)).not.toContain('PB-LF-40-L');
    const refused = await post(
      api.url,
      '/v2/generate',
      { userId: 'reader', sku: 'PB-HC-A4-P', psp: 'local', marketId: 0 },
      serviceHeader(shop.credentials.dev),
    );
    expect(refused.body.code).toBe('PRODUCT_UNAVAILABLE');
    expect(await rowCount(`SELECT count(*) AS n FROM products WHERE client_id = ? AND sku = 'PB-LF-40-L'`)).toBe(0);
    expect(await projectStatus()).toBe(200);

    // Back in the file: the same row, enabled again.
    await replaceCatalogue((await api.orm()).em.fork(), shop.clientId, structuredClone(await loadDemoCatalogue()));
    expect((await products()).find((p) => p.sku === 'PB-HC-A4-P')).toMatchObject({ disabled: false });
  });

  it('refuses, naming it and changing nothing, to drop a market the projects are in', async () => {
    const demo = structuredClone(await loadDemoCatalogue());
    demo.markets = demo.markets.filter((m) => m.marketId !== 0);
    for (const product of demo.products) product.prices = product.prices.filter((price) => price.marketId !== 0);
    demo.products[0].name = { ...demo.products[0].name, en: 'Renamed, never stored' };
    const before = await rowCount(
      `SELECT count(*) AS n FROM product_prices pp JOIN products p ON p.id = pp.product_id WHERE p.client_id = ?`,
    );

    const refusal = await replaceCatalogue((await api.orm()).em.fork(), shop.clientId, demo).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ValidationError);
    expect((refusal as ValidationError).errors).toEqual([
      { path: 'markets', message: expect.stringContaining('market 0') },
    ]);
    expect(
      await rowCount(
        `SELECT count(*) AS n FROM product_prices pp JOIN products p ON p.id = pp.product_id WHERE p.client_id = ?`,
      ),
    ).toBe(before);
    expect(
      await rowCount(
        `SELECT count(*) AS n FROM products WHERE client_id = ? AND name->>'en' = 'Renamed, never stored'`,
      ),
    ).toBe(0);
  });
});
