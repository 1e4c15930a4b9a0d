import { Market, Product } from '../../db/entities';
import type { RequestContext } from '../context';
import { RejectedError } from '../../domain/errors';

/**
 * Finds the product a client names by `sku` (or `renderOptions.productId`) and checks `psp`
 * (`specifications.psp.name` or `renderOptions.psp`). Numbers and strings are both accepted.
 */
export async function resolveProduct(
  ctx: RequestContext,
  sku: string | number,
  psp: string,
  paths = { sku: 'sku', psp: 'psp' },
): Promise<Product> {
  const product = await findProduct(ctx, sku, paths.sku);
  const printer = String(psp).trim();
  if (printer !== product.specifications.psp.name && printer !== product.renderOptions.psp) {
    throw new RejectedError(
      'UNKNOWN_PSP',
      paths.psp,
      `"${printer}" does not print ${product.sku}; use "${product.specifications.psp.name}"`,
    );
  }
  return product;
}

/** The available product a client names by `sku` or `renderOptions.productId` (number or string). */
export async function findProduct(ctx: RequestContext, sku: string | number, path = 'sku'): Promise<Product> {
  const wanted = String(sku).trim();
  const products = await ctx.em.find(Product, { $or: [{ sku: wanted }, { renderOptions: { productId: wanted } }] });
  const product = products.find((p) => p.sku === wanted) ?? products[0];
  if (!product) throw new RejectedError('UNKNOWN_SKU', path, `"${wanted}" is not a sku or productId of this catalogue`);
  if (product.disabled) throw new RejectedError('PRODUCT_UNAVAILABLE', path, `"${wanted}" is not available yet`);
  return product;
}

/** A market by its integer id (number or numeric string) or its alternative id. */
export async function resolveMarket(
  ctx: RequestContext,
  marketId: string | number,
  path = 'marketId',
): Promise<Market> {
  const value = String(marketId).trim();
  const market = await ctx.em.findOne(
    Market,
    /^\d+$/.test(value) ? { marketId: Number(value) } : { marketIdAlt: value },
  );
  if (!market) throw new RejectedError('UNKNOWN_MARKET', path, `"${value}" is not a market of this catalogue`);
  return market;
}
