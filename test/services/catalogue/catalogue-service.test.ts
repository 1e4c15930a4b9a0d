import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, request } from '../../support/http';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

const PATH = '/api/v2/product/list-product.php';

describe('POST /api/v2/product/list-product.php', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: { env: string; key: string; os: string };

  beforeAll(async () => {
    api = await startTestService();
    client = await api.createClient('Catalogue shop');
    auth = { env: 'dev', key: client.credentials.dev.apiKey, os: 'web' };
  });
  afterAll(() => api?.stop());

  it('returns the default market catalogue: currency, products with prices, categories', async () => {
    const { status, body } = await post(api.url, PATH, auth);
    expect(status).toBe(200);
    expect(body.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/catalogue\/$/);
    expect(body.pricesIncludeTax).toBe(true);
    expect(body.currency).toEqual({ code: 'EUR', left: '', right: ' €', decimals: 2 });
    expect(body.products.length).toBeGreaterThanOrEqual(8);
    const topSeller = body.products.find((p: any) => p.sku === 'PB-HC-A4-L');
    expect(topSeller.payment.prices).toEqual([{ price: 29.99, extraCostPerPage: 0.79 }]);
    expect(topSeller.renderOptions).toEqual({ productId: '103', psp: 'local' });
    expect(topSeller.specifications.min.pages).toBeLessThan(topSeller.specifications.max.pages);
    expect(topSeller.specifications.psp).toMatchObject({ name: 'local', leadTime: { unit: expect.any(String) } });
    // The first attribute is always the parent category, which is also listed at the top level.
    const [category, ...variations] = topSeller.attributes;
    expect(category).toMatchObject({ type: 'category', categoryId: 1 });
    expect(category.carousel.length).toBeGreaterThanOrEqual(2);
    expect(variations.find((a: any) => a.type === 'size')).toMatchObject({ topSeller: true, tag: 'Bestseller' });
    const hardcover = body.categories.find((c: any) => c.categoryId === 1);
    expect(hardcover).toMatchObject({ type: 'category', name: 'Hardcover Photobooks' });
    expect(hardcover.products).toContain(103);
    // Every product appears in exactly one top-level category.
    const listed = body.categories.flatMap((c: any) => c.products).sort();
    expect(listed).toEqual(body.products.map((p: any) => p.id).sort());
  });

  it('gives every attribute object a thumbnail path and both descriptions (spec 2.3)', async () => {
    const { body } = await post(api.url, PATH, { ...auth, language: 'de' });
    for (const product of body.products) {
      for (const attribute of product.attributes) {
        const where = `${product.sku} ${attribute.type}`;
        expect(attribute.thumbnail, where).toMatch(/^[a-z0-9][a-z0-9/_-]*\.jpg$/);
        expect(new URL(attribute.thumbnail, body.baseUrl).href.startsWith(body.baseUrl), where).toBe(true);
        expect(attribute.description, where).toMatch(/\S/);
        expect(attribute.descriptionJson.length, where).toBeGreaterThan(0);
        expect(attribute.descriptionJson[0], where).toHaveProperty('type');
      }
    }
    const a4 = body.products.find((p: any) => p.sku === 'PB-HC-A4-L');
    const size = a4.attributes.find((a: any) => a.type === 'size');
    expect(size.thumbnail).toBe('attributes/size/a4-landscape.jpg');
    expect(size.description).toMatch(/Seiten/);
  });

  it('shows the upcoming product greyed out', async () => {
    const { body } = await post(api.url, PATH, auth);
    const upcoming = body.products.filter((p: any) => p.disabled);
    expect(upcoming.map((p: any) => p.sku)).toEqual(['PB-LF-40-L']);
  });

  it('carries descriptions as a string and as structured blocks', async () => {
    const { body } = await post(api.url, PATH, auth);
    for (const product of body.products) {
      expect(typeof product.description).toBe('string');
      expect(product.descriptionJson.length).toBeGreaterThan(0);
      expect(product.descriptionJson[0]).toHaveProperty('type');
    }
  });

  it('picks prices and currency by marketId, with the currency decimals (JPY has none)', async () => {
    const { status, body } = await post(api.url, PATH, { ...auth, marketId: 3 });
    expect(status).toBe(200);
    expect(body.currency).toEqual({ code: 'JPY', left: '¥', right: '', decimals: 0 });
    for (const product of body.products) {
      expect(Number.isInteger(product.payment.prices[0].price)).toBe(true);
    }
    const uk = await post(api.url, PATH, { ...auth, marketId: 1 });
    expect(uk.body.currency.code).toBe('GBP');
    expect(uk.body.products[0].payment.prices[0].price).not.toBe(body.products[0].payment.prices[0].price);
  });

  it('translates by language, using its first two characters, and falls back to English', async () => {
    const german = await post(api.url, PATH, { ...auth, language: 'de_DE' });
    const english = await post(api.url, PATH, auth);
    const unknown = await post(api.url, PATH, { ...auth, language: 'pt' });
    const name = (body: any) => body.products.find((p: any) => p.id === 103).name;
    expect(name(german.body)).not.toBe(name(english.body));
    expect(name(german.body)).toMatch(/Fotobuch/);
    expect(name(unknown.body)).toBe(name(english.body));
    expect(german.body.categories[0].name).not.toBe(english.body.categories[0].name);
  });

  it('returns products tagged with v and lower; all of them without v', async () => {
    const all = await post(api.url, PATH, auth);
    const v1 = await post(api.url, PATH, { ...auth, v: 1 });
    const v2 = await post(api.url, PATH, { ...auth, v: 2 });
    expect(v1.body.products.length).toBeLessThan(v2.body.products.length);
    expect(v2.body.products.length).toBeLessThan(all.body.products.length);
    expect(v1.body.products.map((p: any) => p.id)).not.toContain(204);
    expect(v2.body.products.map((p: any) => p.id)).toContain(204);
    expect(v2.body.products.map((p: any) => p.id)).not.toContain(302);
    // Categories only list products the caller can see.
    expect(v1.body.categories.flatMap((c: any) => c.products)).not.toContain(204);
  });

  it('refuses print types other than photobook with a 422 naming printType', async () => {
    const ok = await post(api.url, PATH, { ...auth, printType: 'photobook' });
    expect(ok.status).toBe(200);
    const { status, headers, body } = await post(api.url, PATH, { ...auth, printType: 'calendar' });
    expect(status).toBe(422);
    expect(headers.get('content-type')).toContain('application/problem+json');
    expect(body).toMatchObject({ status: 422, code: 'UNSUPPORTED_PRINT_TYPE', errors: [{ path: 'printType' }] });
    expect(body.message).toBe(body.detail);
  });

  it('refuses an unknown market with a 422 naming marketId', async () => {
    const { status, body } = await post(api.url, PATH, { ...auth, marketId: 42 });
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'UNKNOWN_MARKET', errors: [{ path: 'marketId' }] });
  });

  it('keeps each client to its own catalogue', async () => {
    const other = await api.createClient('Other shop');
    const orm = await api.orm();
    // Give the other client a cheaper top seller; the first client's price must not move.
    await orm.em.getConnection().execute(
      `UPDATE product_prices SET price = 1 FROM products
        WHERE product_prices.product_id = products.id AND products.client_id = ? AND products.sku = 'PB-HC-A4-L'`,
      [other.clientId],
    );
    const mine = await post(api.url, PATH, auth);
    const theirs = await post(api.url, PATH, { env: 'dev', key: other.credentials.dev.apiKey, os: 'web' });
    const price = (body: any) => body.products.find((p: any) => p.id === 103).payment.prices[0].price;
    expect(price(mine.body)).toBe(29.99);
    expect(price(theirs.body)).toBe(1);
  });

  it('serves prod keys with env prod, and refuses a dev key presented as prod', async () => {
    const prod = await post(api.url, PATH, { env: 'prod', key: client.credentials.prod.apiKey, os: 'web' });
    expect(prod.status).toBe(200);
    const mismatched = await post(api.url, PATH, { env: 'prod', key: client.credentials.dev.apiKey, os: 'web' });
    expect(mismatched.status).toBe(401);
    expect(mismatched.body.errors).toEqual([{ path: 'key', message: expect.stringContaining('prod') }]);
  });

  describe('error model', () => {
    it('malformed JSON is a 400 problem', async () => {
      const { status, headers, body } = await request(api.url, 'POST', PATH, { rawBody: '{"env": "dev", ' });
      expect(status).toBe(400);
      expect(headers.get('content-type')).toContain('application/problem+json');
      expect(body).toMatchObject({
        type: '/problems/malformed-json',
        title: 'Bad Request',
        status: 400,
        code: 'MALFORMED_JSON',
      });
    });

    it('a missing os is a 400 naming os', async () => {
      const { status, body } = await post(api.url, PATH, { env: 'dev', key: auth.key });
      expect(status).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.errors).toEqual([{ path: 'os', message: 'is required' }]);
      expect(body.detail).toContain('os');
    });

    it('wrong types are a 400 naming every bad field', async () => {
      const { status, body } = await post(api.url, PATH, { ...auth, marketId: 'abc', v: [1] });
      expect(status).toBe(400);
      expect(body.errors.map((e: any) => e.path).sort()).toEqual(['marketId', 'v']);
    });

    it('an unknown env is a 400 naming env', async () => {
      const { status, body } = await post(api.url, PATH, { ...auth, env: 'staging' });
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ path: 'env', message: 'must be one of "dev", "prod"' }]);
    });

    it('a bad key is a 401 naming key', async () => {
      const { status, body } = await post(api.url, PATH, { ...auth, key: 'key_dev_not-a-key' });
      expect(status).toBe(401);
      expect(body).toMatchObject({ code: 'UNAUTHENTICATED', errors: [{ path: 'key' }] });
    });

    it('a non-JSON content type is a 415, an unknown route a 404, both problems', async () => {
      const text = await request(api.url, 'POST', PATH, {
        rawBody: 'env=dev',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status).toBe(415);
      expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const missing = await post(api.url, '/api/v2/product/nope.php', auth);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toContain('application/problem+json');
    });

    it('an oversized body is a 413', async () => {
      const { status, body } = await post(api.url, PATH, { ...auth, padding: 'x'.repeat(2 * 1024 * 1024) });
      expect(status).toBe(413);
      expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });
});
