import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedClient, IssuedCredentials } from '../../src/services/clients/client-admin';
import { CatalogueDocument, MarketsDocument, type MarketsQuery } from '../support/generated/graphql';
import { startTestService, type TestService } from '../support/harness';
import { serviceHeader } from '../support/http';

interface GraphqlResponse<T> {
  status: number;
  body: { data?: T | null; errors?: { message: string; extensions?: Record<string, any> }[] };
}

/** POSTs one typed operation to /graphql over real HTTP; variables and result follow the document's types. */
async function execute<TResult, TVariables>(
  baseUrl: string,
  document: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  headers: Record<string, string>,
): Promise<GraphqlResponse<TResult>> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...headers,
    },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

describe('GraphQL over HTTP at /graphql', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    client = await api.createClient('GraphQL shop');
    auth = serviceHeader(client.credentials.dev);
  });
  afterAll(() => api?.stop());

  describe('catalogue', () => {
    it('returns the default market in EUR with products and categories', async () => {
      const { status, body } = await execute(api.url, CatalogueDocument, {}, auth);
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const catalogue = body.data!.catalogue;
      expect(catalogue.currency).toEqual({ code: 'EUR', left: '', right: ' €', decimals: 2 });
      const topSeller = catalogue.products.find((p) => p.sku === 'PB-HC-A4-L')!;
      expect(topSeller.payment.prices).toEqual([{ price: 29.99, extraCostPerPage: 0.79 }]);
      expect(topSeller.attributes[0]).toMatchObject({ type: 'category', categoryId: 1 });
      const cover = topSeller.attributes.find((a) => a.type === 'cover')!;
      expect(cover.thumbnail).toBe('attributes/cover/hardcover-matte.jpg');
      expect(cover.description).toMatch(/cover/i);
      expect(cover.descriptionJson[0]).toMatchObject({ type: 'paragraph', text: cover.description });
      expect(catalogue.categories.find((c) => c.categoryId === 1)!.products).toContain(103);
      expect(catalogue.products.filter((p) => p.disabled).map((p) => p.id)).toEqual([303]);
    });

    it('prices market 3 in JPY, whole yen only', async () => {
      const { status, body } = await execute(api.url, CatalogueDocument, { marketId: 3 }, auth);
      expect(status).toBe(200);
      const { currency, products } = body.data!.catalogue;
      expect(currency).toEqual({ code: 'JPY', left: '¥', right: '', decimals: 0 });
      expect(products.length).toBeGreaterThan(0);
      for (const product of products) {
        for (const { price, extraCostPerPage } of product.payment.prices) {
          expect(Number.isInteger(price), `${product.sku} price ${price}`).toBe(true);
          expect(Number.isInteger(extraCostPerPage), `${product.sku} extra page ${extraCostPerPage}`).toBe(true);
        }
      }
    });

    it('translates into German and falls back to English for a language the catalogue lacks', async () => {
      const english = await execute(api.url, CatalogueDocument, { language: 'en' }, auth);
      const german = await execute(api.url, CatalogueDocument, { language: 'de' }, auth);
      const portuguese = await execute(api.url, CatalogueDocument, { language: 'pt' }, auth);
      const name = (response: typeof english) => response.body.data!.catalogue.products.find((p) => p.id === 103)!.name;
      expect(name(english)).toBe('Hardcover Photobook A4 Landscape');
      expect(name(german)).toBe('Hardcover-Fotobuch A4 Querformat');
      expect(name(portuguese)).toBe(name(english));
      expect(german.body.data!.catalogue.categories[0].name).not.toBe(english.body.data!.catalogue.categories[0].name);
    });

    it('with v: 1 leaves out products tagged v2 and v3, also from the categories', async () => {
      const all = await execute(api.url, CatalogueDocument, {}, auth);
      const v1 = await execute(api.url, CatalogueDocument, { v: 1 }, auth);
      const ids = (response: typeof all) => response.body.data!.catalogue.products.map((p) => p.id);
      expect(ids(all)).toEqual(expect.arrayContaining([204, 301, 302, 303]));
      expect(ids(v1)).toEqual(expect.arrayContaining([101, 102, 103, 104, 201, 202, 203]));
      for (const later of [204, 301, 302, 303]) expect(ids(v1)).not.toContain(later);
      expect(v1.body.data!.catalogue.categories.flatMap((c) => c.products)).not.toContain(204);
    });

    it('reports an unknown market as a GraphQL error with code UNKNOWN_MARKET', async () => {
      const { body } = await execute(api.url, CatalogueDocument, { marketId: 42 }, auth);
      expect(body.data ?? null).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors![0].extensions).toMatchObject({ code: 'UNKNOWN_MARKET', errors: [{ path: 'marketId' }] });
      expect(body.errors![0].message).toContain('42');
    });
  });

  describe('markets', () => {
    it('suggests the Japanese market for Tokyo', async () => {
      const { status, body } = await execute(
        api.url,
        MarketsDocument,
        { latitude: 35.6762, longitude: 139.6503 },
        auth,
      );
      expect(status).toBe(200);
      expect(body.data!.markets.suggested).toMatchObject({ marketId: 3, isoCode2: 'JP', currency: 'JPY' });
      expect(body.data!.markets.results.map((m) => m.marketId)).toEqual([0, 1, 2, 3, 4]);
    });

    it('suggests nothing without coordinates', async () => {
      const { body } = await execute(api.url, MarketsDocument, {}, auth);
      expect(body.errors).toBeUndefined();
      expect(body.data!.markets.suggested).toBeNull();
      expect(body.data!.markets.results).toHaveLength(5);
    });
  });

  describe('authentication', () => {
    it('refuses a request without X-Service with 401 and code UNAUTHENTICATED', async () => {
      const { status, body } = await execute(api.url, MarketsDocument, {}, { 'apollo-require-preflight': 'true' });
      expect(status).toBe(401);
      expect(body.data).toBeUndefined();
      expect(body.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    });

    it('refuses a wrong accessSecret with 401', async () => {
      const wrong = serviceHeader({ accessKey: client.credentials.dev.accessKey, accessSecret: 'not-the-secret' });
      const { status, body } = await execute(api.url, MarketsDocument, {}, wrong);
      expect(status).toBe(401);
      expect(body.data).toBeUndefined();
      expect(body.errors![0].extensions!.code).toBe('UNAUTHENTICATED');
    });

    it.each(['dev', 'prod'] as const)('accepts the %s credentials of a client', async (env) => {
      const credentials: IssuedCredentials = client.credentials[env];
      const { status, body } = await execute(api.url, MarketsDocument, {}, serviceHeader(credentials));
      expect(status).toBe(200);
      expect(body.data!.markets.results).toHaveLength(5);
    });
  });

  describe('CSRF prevention', () => {
    it('serves a GET with no Content-Type when X-Service is present', async () => {
      const url = new URL(`${api.url}/graphql`);
      url.searchParams.set('query', print(MarketsDocument));
      url.searchParams.set('variables', JSON.stringify({ latitude: 35.6762, longitude: 139.6503 }));
      const response = await fetch(url, { headers: auth });
      const body = (await response.json()) as { data: MarketsQuery };
      expect(response.status).toBe(200);
      expect(body.data.markets.suggested?.marketId).toBe(3);
    });

    it('blocks a simple GET (no X-Service, no Apollo header), as a cross-site link or <img> would send it', async () => {
      const url = new URL(`${api.url}/graphql`);
      url.searchParams.set('query', print(MarketsDocument));
      const response = await fetch(url);
      const text = await response.text();
      expect(response.status).not.toBe(200);
      expect([400, 401]).toContain(response.status);
      expect(text).not.toContain('"data"');
    });

    it('blocks a simple text/plain POST carrying no X-Service or Apollo header', async () => {
      const response = await fetch(`${api.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ query: print(MarketsDocument) }),
      });
      const text = await response.text();
      // Fastify refuses the unparsed media type (415) before authentication (401) or Apollo's CSRF check (400).
      expect(response.status).not.toBe(200);
      expect([400, 401, 415]).toContain(response.status);
      expect(text).not.toContain('"data"');
    });
  });

  it('passes every MUST audit of graphql-http', async () => {
    const credentials = serviceHeader(client.credentials.dev);
    const audits = serverAudits({
      url: `${api.url}/graphql`,
      fetchFn: (input: string | URL | Request, init?: RequestInit) =>
        fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...credentials } }),
    });
    const results = await Promise.all(audits.map((audit) => audit.fn()));
    const mustAudits = results.filter((result) => result.name.startsWith('MUST'));
    expect(mustAudits.length).toBeGreaterThan(5);
    const failures = mustAudits
      .filter((result) => result.status === 'error')
      .map((result) => `${result.name}: ${'reason' in result ? result.reason : ''}`);
    expect(failures, failures.join('\n')).toEqual([]);
  });
});
