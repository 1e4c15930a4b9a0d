import { readFile } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Category, Client, Currency, Market, Product, ProductAttribute, ProductPrice } from '../../db/entities';
import { ACROSS_TENANTS } from '../../db/tenant-filter';
import { parseCatalogueFile, type CatalogueFile, type CatalogueTile } from './catalogue-file';
import { ValidationError } from '../../domain/errors';
import { projectPath } from '../../config/project-root';

const DEMO_CATALOGUE_PATH = projectPath('catalogue', 'demo.json');

let demoCatalogue: Promise<CatalogueFile> | undefined;

/** The demo catalogue every new client starts with, read and validated once per process. */
export function loadDemoCatalogue(): Promise<CatalogueFile> {
  demoCatalogue ??= readCatalogueFile(DEMO_CATALOGUE_PATH);
  return demoCatalogue;
}

export async function readCatalogueFile(file: string | URL): Promise<CatalogueFile> {
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw ValidationError.field('(file)', `is not valid JSON: ${(error as Error).message}`, 'INVALID_CATALOGUE');
  }
  return parseCatalogueFile(json);
}

/**
 * Replaces a client's whole catalogue (currencies, markets, categories, products, attributes,
 * prices) in one transaction: readers see the old catalogue or the new one, never a mix.
 */
export async function replaceCatalogue(em: EntityManager, clientId: string, file: CatalogueFile): Promise<void> {
  await em.transactional(async (tx) => {
    const client = tx.getReference(Client, clientId);
    // Operator code (CLI, client creation), outside any request: it names its client itself.
    // Products cascade to their attributes and prices in the database.
    await tx.nativeDelete(Product, { client }, ACROSS_TENANTS);
    await tx.nativeDelete(Category, { client }, ACROSS_TENANTS);
    await tx.nativeDelete(Market, { client }, ACROSS_TENANTS);
    await tx.nativeDelete(Currency, { client }, ACROSS_TENANTS);
    await tx.nativeUpdate(Client, { id: clientId }, {
      catalogueBaseUrl: file.baseUrl ?? null,
      pricesIncludeTax: file.pricesIncludeTax,
    });

    const currencies = new Map(
      file.currencies.map((c) => [c.code, tx.create(Currency, { client, code: c.code, left: c.left, right: c.right, decimals: c.decimals })]),
    );
    const markets = new Map(
      file.markets.map((m) => [
        m.marketId,
        tx.create(Market, {
          client,
          marketId: m.marketId,
          marketIdAlt: m.marketIdAlt,
          storeName: m.storeName,
          isoCode2: m.isoCode2,
          currency: currencies.get(m.currency)!,
          shipsWithin: m.shipsWithin,
          shippingLevels: m.shippingLevels ?? [],
          taxRates: m.taxRates ?? [],
        }),
      ]),
    );
    const categories = new Map(
      file.categories.map((c) => [
        c.categoryId,
        tx.create(Category, {
          client,
          categoryId: c.categoryId,
          ...tileColumns(c),
          carousel: c.carousel,
        }),
      ]),
    );
    file.products.forEach((p, index) => {
      const product = tx.create(Product, {
        client,
        productId: p.id,
        sku: p.sku,
        minVersion: p.v,
        category: categories.get(p.categoryId)!,
        name: p.name,
        metaTitle: p.metaTitle,
        description: p.description,
        descriptionJson: p.descriptionJson,
        thumbnail: p.thumbnail,
        disabled: p.disabled ?? false,
        specifications: p.specifications,
        renderOptions: p.renderOptions,
        sortOrder: index,
      });
      for (const a of p.attributes) {
        tx.create(ProductAttribute, {
          product,
          type: a.type,
          ...tileColumns(a),
        });
      }
      for (const price of p.prices) {
        tx.create(ProductPrice, { product, market: markets.get(price.marketId)!, price: price.price, extraCostPerPage: price.extraCostPerPage });
      }
    });
  });
}

/** The columns of a category or product attribute that show it as a tile, defaults filled in. */
function tileColumns(tile: CatalogueTile) {
  return {
    name: tile.name,
    subtitle: tile.subtitle,
    thumbnail: tile.thumbnail,
    description: tile.description,
    descriptionJson: tile.descriptionJson,
    sortOrder: tile.order,
    tag: tile.tag ?? null,
    topSeller: tile.topSeller ?? false,
    disabled: tile.disabled ?? false,
  };
}
