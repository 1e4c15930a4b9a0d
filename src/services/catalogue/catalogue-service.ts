import { Category, Client, Market, Product, ProductPrice } from '../../db/entities';
import type { RequestContext } from '../context';
import { pick } from '../../domain/localized';
import { RejectedError } from '../../domain/errors';
import type { AttributeView, CatalogueView, ProductView } from './catalogue-view';
import type { DineroCurrency } from 'dinero.js';
import { asNumber, currencyOf, roundedMoneyOf } from '../money/money';

export const SUPPORTED_PRINT_TYPES = ['photobook'];
export const SUPPORTED_SCHEMAS = [1];

export interface CatalogueQuery {
  language: string;
  marketId?: number;
  /** Products tagged with this version and lower; all products when absent. */
  v?: number;
  printType?: string;
  schema?: number;
}

/** The value of `type` on category attributes and category entries (docs/api.md, Product list). */
const CATEGORY_TYPE = 'category';

export class CatalogueService {
  constructor(private readonly defaultAssetBaseUrl: string) {}

  /** The catalogue as one market sees it: its prices and currency, in one language (docs/api.md, Product list). */
  async list(ctx: RequestContext, query: CatalogueQuery): Promise<CatalogueView> {
    if (query.printType !== undefined && !SUPPORTED_PRINT_TYPES.includes(query.printType)) {
      throw new RejectedError(
        'UNSUPPORTED_PRINT_TYPE',
        'printType',
        `"${query.printType}" is not supported; use ${SUPPORTED_PRINT_TYPES.join(', ')}`,
      );
    }
    if (query.schema !== undefined && !SUPPORTED_SCHEMAS.includes(query.schema)) {
      throw new RejectedError(
        'UNSUPPORTED_SCHEMA',
        'schema',
        `${query.schema} is not supported; use ${SUPPORTED_SCHEMAS.join(', ')}`,
      );
    }
    const { em, tenant } = ctx;
    const marketId = query.marketId ?? 0;
    const readOnly = { disableIdentityMap: true } as const;
    const [client, market] = await Promise.all([
      em.findOneOrFail(Client, { id: tenant.clientId }, readOnly),
      em.findOne(Market, { marketId }, { ...readOnly, populate: ['currency'] }),
    ]);
    if (!market) throw new RejectedError('UNKNOWN_MARKET', 'marketId', `market ${marketId} is not in this catalogue`);

    const productWhere = query.v === undefined ? {} : { minVersion: { $lte: query.v } };
    const [products, categories, prices] = await Promise.all([
      em.find(Product, productWhere, {
        ...readOnly,
        populate: ['attributes', 'category'],
        orderBy: { sortOrder: 'asc' },
      }),
      em.find(Category, {}, { ...readOnly, orderBy: { sortOrder: 'asc', categoryId: 'asc' } }),
      em.find(ProductPrice, { market, product: productWhere }, readOnly),
    ]);

    const language = query.language;
    const currency = currencyOf(market.currency.code, market.currency.decimals);
    const priceOf = new Map(prices.map((p) => [p.product.id, p]));
    const categoryAttribute = new Map(categories.map((c) => [c.id, categoryAsAttribute(c, language)]));

    const productViews = products.map((p): ProductView => {
      const price = priceOf.get(p.id);
      return {
        id: p.productId,
        sku: p.sku,
        name: pick(p.name, language),
        description: pick(p.description, language),
        descriptionJson: pick(p.descriptionJson, language),
        metaTitle: pick(p.metaTitle, language),
        thumbnail: p.thumbnail,
        payment: {
          prices: price
            ? [{ price: shown(price.price, currency), extraCostPerPage: shown(price.extraCostPerPage, currency) }]
            : [],
        },
        attributes: [
          categoryAttribute.get(p.category.id)!,
          ...p.attributes.getItems().map((a) => ({
            type: a.type,
            name: pick(a.name, language),
            subtitle: pick(a.subtitle, language),
            thumbnail: a.thumbnail,
            description: pick(a.description, language),
            descriptionJson: pick(a.descriptionJson, language),
            order: a.sortOrder,
            ...(a.tag ? { tag: pick(a.tag, language) } : {}),
            topSeller: a.topSeller,
            disabled: a.disabled,
          })),
        ],
        specifications: p.specifications,
        renderOptions: p.renderOptions,
        disabled: p.disabled,
      };
    });

    return {
      baseUrl: client.catalogueBaseUrl ?? this.defaultAssetBaseUrl,
      pricesIncludeTax: client.pricesIncludeTax,
      currency: {
        code: market.currency.code,
        left: market.currency.left,
        right: market.currency.right,
        decimals: market.currency.decimals,
      },
      products: productViews,
      categories: categories.map((c) => ({
        categoryId: c.categoryId,
        type: CATEGORY_TYPE,
        name: pick(c.name, language),
        thumbnail: c.thumbnail,
        products: products.filter((p) => p.category.id === c.id).map((p) => p.productId),
      })),
    };
  }
}

function categoryAsAttribute(c: Category, language: string): AttributeView {
  return {
    categoryId: c.categoryId,
    type: CATEGORY_TYPE,
    name: pick(c.name, language),
    subtitle: pick(c.subtitle, language),
    carousel: c.carousel.map((slide) => ({ image: slide.image, caption: pick(slide.caption, language) })),
    thumbnail: c.thumbnail,
    description: pick(c.description, language),
    descriptionJson: pick(c.descriptionJson, language),
    order: c.sortOrder,
    ...(c.tag ? { tag: pick(c.tag, language) } : {}),
    topSeller: c.topSeller,
    disabled: c.disabled,
  };
}

/** Prices are shown with the currency's decimals (0 for JPY), rounded half away from zero on their decimal digits. */
function shown(value: number, currency: DineroCurrency<number, string>): number {
  return asNumber(roundedMoneyOf(value, currency));
}
