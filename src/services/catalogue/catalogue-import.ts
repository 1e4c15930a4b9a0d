import { readFile } from 'node:fs/promises';
import {
  ForeignKeyConstraintViolationException,
  type EntityData,
  type EntityManager,
  type RequiredEntityData,
} from '@mikro-orm/postgresql';
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
 * prices) in one transaction: readers see the old catalogue or the new one, never a mix. Rows are
 * updated in place by their catalogue ids (currency code, marketId, categoryId, product id), so the
 * projects and orders that point at them keep pointing at the same rows. A row the file leaves out
 * is deleted when nothing points at it; a product or category something still points at stays,
 * disabled (listed greyed out and refused by generate, as a `disabled` product of a file is); a
 * market that projects or orders use cannot go (a shop would lose its orders' market): the import
 * is refused naming it, nothing changed.
 */
export async function replaceCatalogue(em: EntityManager, clientId: string, file: CatalogueFile): Promise<void> {
  await em.transactional(async (tx) => {
    const client = tx.getReference(Client, clientId);
    // Operator code (CLI, client creation), outside any request: it names its client itself.
    const mine = { client } as const;
    await tx.nativeUpdate(
      Client,
      { id: clientId },
      {
        catalogueBaseUrl: file.baseUrl ?? null,
        pricesIncludeTax: file.pricesIncludeTax,
      },
    );
    // Skus move between products in place (a swap would meet the (client, sku) unique key half way): out of the way first.
    const connection = tx.getConnection();
    const skus = new Map(
      (
        await connection.execute<{ id: string; sku: string }[]>(
          'SELECT id, sku FROM products WHERE client_id = ?',
          [clientId],
          'all',
          tx.getTransactionContext(),
        )
      ).map((row) => [String(row.id), row.sku]),
    );
    await connection.execute(
      `UPDATE products SET sku = left(sku, 70) || '~' || id WHERE client_id = ?`,
      [clientId],
      'run',
      tx.getTransactionContext(),
    );
    const [oldCurrencies, oldMarkets, oldCategories, oldProducts] = await Promise.all([
      tx.find(Currency, mine, ACROSS_TENANTS),
      tx.find(Market, mine, ACROSS_TENANTS),
      tx.find(Category, mine, ACROSS_TENANTS),
      tx.find(Product, mine, ACROSS_TENANTS),
    ]);

    const currencies = new Map(
      file.currencies.map((c) => [
        c.code,
        keep(
          tx,
          Currency,
          oldCurrencies.find((old) => old.code === c.code),
          { client, code: c.code, left: c.left, right: c.right, decimals: c.decimals },
        ),
      ]),
    );
    const markets = new Map(
      file.markets.map((m) => [
        m.marketId,
        keep(
          tx,
          Market,
          oldMarkets.find((old) => old.marketId === m.marketId),
          {
            client,
            marketId: m.marketId,
            marketIdAlt: m.marketIdAlt,
            storeName: m.storeName,
            isoCode2: m.isoCode2,
            currency: currencies.get(m.currency)!,
            shipsWithin: m.shipsWithin,
            shippingLevels: m.shippingLevels ?? [],
            taxRates: m.taxRates ?? [],
          },
        ),
      ]),
    );
    const categories = new Map(
      file.categories.map((c) => [
        c.categoryId,
        keep(
          tx,
          Category,
          oldCategories.find((old) => old.categoryId === c.categoryId),
          { client, categoryId: c.categoryId, ...tileColumns(c), carousel: c.carousel },
        ),
      ]),
    );
    const products = file.products.map((p, index) =>
      keep(
        tx,
        Product,
        oldProducts.find((old) => old.productId === p.id),
        {
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
          partnerProducts: p.partnerProducts ?? null,
          sortOrder: index,
        },
      ),
    );
    await tx.flush();
    // A kept product's attributes and prices are the file's: nothing points at them but their product.
    const kept = products.map((product) => product.id);
    await tx.nativeDelete(ProductAttribute, { product: { $in: kept } }, ACROSS_TENANTS);
    await tx.nativeDelete(ProductPrice, { product: { $in: kept } }, ACROSS_TENANTS);
    file.products.forEach((p, index) => {
      for (const a of p.attributes)
        tx.create(ProductAttribute, { product: products[index], type: a.type, ...tileColumns(a) });
      for (const price of p.prices) {
        tx.create(ProductPrice, {
          product: products[index],
          market: markets.get(price.marketId)!,
          price: price.price,
          extraCostPerPage: price.extraCostPerPage,
        });
      }
    });
    await tx.flush();

    const taken = new Set(file.products.map((p) => p.sku));
    for (const old of oldProducts.filter((o) => !products.includes(o))) {
      if (await deleted(tx, Product, old.id)) continue;
      const sku = skus.get(old.id)!;
      await tx.nativeUpdate(
        Product,
        { id: old.id },
        { disabled: true, sku: taken.has(sku) ? `${sku.slice(0, 70)}~retired-${old.id}` : sku },
        ACROSS_TENANTS,
      );
    }
    for (const old of oldCategories.filter((o) => ![...categories.values()].includes(o))) {
      if (!(await deleted(tx, Category, old.id)))
        await tx.nativeUpdate(Category, { id: old.id }, { disabled: true }, ACROSS_TENANTS);
    }
    for (const old of oldMarkets.filter((o) => ![...markets.values()].includes(o))) {
      if (!(await deleted(tx, Market, old.id))) {
        throw ValidationError.field(
          'markets',
          `must keep market ${old.marketId}: projects or orders of this client are in it`,
          'INVALID_CATALOGUE',
        );
      }
    }
    for (const old of oldCurrencies.filter((o) => ![...currencies.values()].includes(o)))
      await deleted(tx, Currency, old.id);
  });
}

/** `existing` with `data` assigned, or a new row of `data`. */
function keep<T extends object>(
  tx: EntityManager,
  entity: new () => T,
  existing: T | undefined,
  data: RequiredEntityData<T>,
): T {
  if (!existing) return tx.create(entity, data);
  // MikroORM's assign types cannot follow a generic entity; the data is the create's, checked above.
  tx.assign(existing as object, data as EntityData<object>);
  return existing;
}

/** Deletes the row unless something points at it (a foreign key refuses); whether it went. */
async function deleted(
  tx: EntityManager,
  entity: typeof Product | typeof Category | typeof Market | typeof Currency,
  id: string,
): Promise<boolean> {
  try {
    await tx.transactional((inner) => inner.nativeDelete(entity, { id }, ACROSS_TENANTS));
    return true;
  } catch (error) {
    if (error instanceof ForeignKeyConstraintViolationException) return false;
    throw error;
  }
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
