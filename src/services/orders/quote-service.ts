import { lessThanOrEqual } from 'dinero.js';
import { Client, type Market, type Product, ProductPrice, Project, Quote } from '../../db/entities';
import type { QuotedLine } from '../../db/entities/Quote';
import type { RequestContext } from '../context';
import { ConflictError, NotFoundError, RejectedError, ValidationError } from '../../domain/errors';
import { isProjectId } from '../../domain/ids';
import { languageOf, pick } from '../../domain/localized';
import { findProduct, resolveMarket } from '../catalogue/catalogue-lookup';
import { marketShipsTo } from '../markets/destination';
import { randomBase62 } from '../projects/project-ids';
import { bookPageCounts } from '../projects/book-page-count';
import { effectiveStatus } from '../projects/project-view';
import { countryByIso2 } from './countries';
import { estimateDelivery, leadDaysOf } from './delivery-estimate';
import { asNumber, currencyOf, decimal, moneyOf, zero, type Money } from '../money/money';
import { priceOrder, type PricedOrder } from './pricing';
import { QuoteInput } from './quote-input';
import { evenPageBounds } from '../projects/book-builder';
import { schemaCheck } from '../schema-check';
import type { QuoteView } from './quote-view';
import { findLevel, levelPrice, levelsReaching, defaultLevel, type LevelReach } from './shipping-level';
import { taxRateFor } from './tax-rate';

const QUOTE_ID_PREFIX = 'q_';

/**
 * How long an expired quote is kept: an order naming it meanwhile is told it expired
 * (`QUOTE_EXPIRED`); after that it is gone and the id is not found.
 */
const EXPIRED_QUOTE_KEPT_MS = 7 * 24 * 3600 * 1000;

/** A line as priced: what the book is and what the market charges for it. */
interface LineToQuote {
  projectId?: string;
  product: Product;
  pageCount: number;
  quantity: number;
  basePrice: Money;
  extraCostPerPage: Money;
}

/**
 * The quote input's one declaration (./quote-input.ts) checks it on every transport: REST's schema
 * refused a bad body already; GraphQL's `quote`, whose types carry no limits, is refused here alike.
 */
const checkQuoteInput = schemaCheck(QuoteInput);

/**
 * docs/api.md, Quote. Prices lines for a market and destination with exact money, lists every
 * shipping level that reaches the destination with its cost and delivery range, and stores the
 * quote so that `/v2/print` can hold an order to it until `expiresAt`. A client's own mistakes
 * (unknown sku, market, country or level) are 400s naming the field; another tenant's project is
 * a 404 like an unknown one.
 */
export async function createQuote(
  ctx: RequestContext,
  input: QuoteInput,
  options: { ttlMs: number; now?: Date },
): Promise<QuoteView> {
  checkQuoteInput(input);
  const now = options.now ?? new Date();
  const market = await asBadRequest(() => resolveMarket(ctx, input.marketId, 'marketId'));
  await ctx.em.populate(market, ['currency']);
  const country = destinationOf(market, input.countryIso2);
  const currency = currencyOf(market.currency.code, market.currency.decimals);
  const lines = await quoteLines(ctx, input.lines, market);

  const reaching = levelsReaching(market, country);
  const chosen = chooseLevel(market, reaching, input.shippingLevel, country);
  const coupon = clientAmount(input.coupon?.value ?? 0, currency, 'coupon.value');
  const { pricesIncludeTax } = await ctx.em.findOneOrFail(
    Client,
    { id: ctx.tenant.clientId },
    { fields: ['pricesIncludeTax'] },
  );
  const taxRate = taxRateFor(market, country);
  const priceWith = (reach: LevelReach | undefined): PricedOrder =>
    priceOrder({
      currency,
      lines: lines.map((line) => ({ ...line, basePages: line.product.specifications.min.pages })),
      shipping: reach ? moneyOf(levelPrice(reach.level, currency.code)!, currency) : zero(currency),
      coupon,
      taxRate,
      pricesIncludeTax,
    });
  const totals = priceWith(chosen);
  if (!lessThanOrEqual(coupon, totals.subTotal)) {
    throw ValidationError.field(
      'coupon.value',
      `is more than the books' subtotal ${decimal(totals.subTotal)}`,
      'COUPON_TOO_LARGE',
    );
  }

  const productionDays = Math.max(...lines.map((line) => leadDaysOf(line.product.specifications.psp.leadTime)));
  const language = languageOf(input.language);
  const quotedLines: QuotedLine[] = lines.map((line, i) => ({
    ...(line.projectId ? { projectId: line.projectId } : {}),
    sku: line.product.sku,
    pageCount: line.pageCount,
    quantity: line.quantity,
    lineTotal: decimal(totals.lines[i].lineTotal),
  }));
  // Before the insert, this tenant's long-expired quotes go, so the table holds a TTL's worth (plus the grace).
  await ctx.em.nativeDelete(Quote, { expiresAt: { $lt: new Date(now.getTime() - EXPIRED_QUOTE_KEPT_MS) } });
  const quote = ctx.em.create(Quote, {
    id: `${QUOTE_ID_PREFIX}${randomBase62(24)}`,
    client: ctx.tenant.clientId,
    env: ctx.tenant.env,
    marketId: market.marketId,
    currency: currency.code,
    countryIso2: country,
    shippingLevel: chosen?.level.code ?? null,
    lines: quotedLines,
    totals: {
      subTotal: decimal(totals.subTotal),
      shipping: decimal(totals.shipping),
      coupon: decimal(totals.coupon),
      tax: decimal(totals.taxTotal),
      grandTotal: decimal(totals.grandTotal),
    },
    expiresAt: new Date(now.getTime() + options.ttlMs),
    createdAt: now,
  });
  await ctx.em.flush();

  return {
    quoteId: quote.id,
    expiresAt: Math.floor(quote.expiresAt.getTime() / 1000),
    marketId: market.marketId,
    currency: currency.code,
    countryIso2: country,
    pricesIncludeTax,
    taxRate: Number(taxRate),
    lines: lines.map((line, i) => {
      const priced = totals.lines[i];
      return {
        ...(line.projectId ? { projectId: line.projectId } : {}),
        sku: line.product.sku,
        pageCount: line.pageCount,
        basePages: line.product.specifications.min.pages,
        extraPages: priced.extraPages,
        quantity: line.quantity,
        basePrice: asNumber(line.basePrice),
        extraCostPerPage: asNumber(line.extraCostPerPage),
        extraPagesCost: asNumber(priced.extraPagesCost),
        unitPrice: asNumber(priced.unitPrice),
        lineTotal: asNumber(priced.lineTotal),
        discount: asNumber(priced.discount),
        tax: asNumber(priced.tax),
      };
    }),
    shippingLevels: reaching.map((reach) => {
      const withLevel = reach === chosen ? totals : priceWith(reach);
      return {
        code: reach.level.code,
        name: pick(reach.level.name, language),
        cost: asNumber(withLevel.shipping),
        tax: asNumber(withLevel.shippingTax),
        grandTotal: asNumber(withLevel.grandTotal),
        productionDays,
        transitDays: reach.transitDays,
        delivery: estimateDelivery(now, productionDays, reach.transitDays),
      };
    }),
    shippingLevel: chosen?.level.code ?? null,
    subTotal: asNumber(totals.subTotal),
    shipping: asNumber(totals.shipping),
    coupon: asNumber(totals.coupon),
    tax: asNumber(totals.taxTotal),
    grandTotal: asNumber(totals.grandTotal),
  };
}

/** The destination: a real country the market ships to. */
function destinationOf(market: Market, countryIso2: string): string {
  const country = countryByIso2(String(countryIso2));
  if (!country)
    throw ValidationError.field('countryIso2', 'must be an ISO 3166-1 alpha-2 country code', 'UNKNOWN_COUNTRY');
  if (!marketShipsTo(market, country.isoCode2)) {
    throw ValidationError.field(
      'countryIso2',
      `market ${market.marketIdAlt} does not ship to ${country.isoCode2}`,
      'COUNTRY_NOT_SHIPPED',
    );
  }
  return country.isoCode2;
}

/** The level asked for (by code or name), which must reach the country; else the default, else the first that reaches. */
function chooseLevel(
  market: Market,
  reaching: LevelReach[],
  asked: string | undefined,
  country: string,
): LevelReach | undefined {
  if (asked === undefined) {
    const fallback = defaultLevel(market);
    return reaching.find((reach) => reach.level === fallback) ?? reaching[0];
  }
  const level = findLevel(market, asked);
  if (!level) {
    const codes = market.shippingLevels.map((l) => l.code).join(', ') || 'none';
    throw ValidationError.field(
      'shippingLevel',
      `"${asked}" is not a shipping level of market ${market.marketIdAlt} (${codes})`,
      'UNKNOWN_SHIPPING_LEVEL',
    );
  }
  const reach = reaching.find((r) => r.level === level);
  if (!reach)
    throw ValidationError.field(
      'shippingLevel',
      `"${level.code}" does not ship to ${country}`,
      'SHIPPING_LEVEL_UNAVAILABLE',
    );
  return reach;
}

async function quoteLines(ctx: RequestContext, inputs: QuoteInput['lines'], market: Market): Promise<LineToQuote[]> {
  const projectIds = inputs.flatMap((line) =>
    line.projectId !== undefined && isProjectId(line.projectId) ? [line.projectId] : [],
  );
  const pageCounts = await bookPageCounts(ctx, projectIds);
  const lines: LineToQuote[] = [];
  for (const [i, line] of inputs.entries()) {
    const at = `lines[${i}]`;
    let product: Product;
    let pageCount: number;
    if (line.projectId !== undefined) {
      if (line.sku !== undefined) throw ValidationError.field(`${at}.sku`, 'give a projectId or a sku, not both');
      if (line.pageCount !== undefined)
        throw ValidationError.field(`${at}.pageCount`, "is the book's own with a projectId; give it only with a sku");
      if (!isProjectId(line.projectId))
        throw ValidationError.field(
          `${at}.projectId`,
          'must be the id of a project created by generate (starts with p-)',
          'INVALID_PROJECT_ID',
        );
      const project = await ctx.em.findOne(
        Project,
        { id: line.projectId, status: { $ne: 'deleted' } },
        { populate: ['product'] },
      );
      if (!project) throw new NotFoundError('project', line.projectId, `${at}.projectId`);
      if (effectiveStatus(project) === 'expired')
        throw new ConflictError(
          'PROJECT_EXPIRED',
          `${at}.projectId: project ${line.projectId} has expired and cannot be printed`,
        );
      const pages = pageCounts.get(project.id);
      if (pages === undefined)
        throw new ConflictError(
          'PROJECT_BUILDING',
          `${at}.projectId: the book of ${project.id} is not laid out yet; quote by sku and pageCount meanwhile`,
        );
      product = project.product;
      pageCount = pages;
    } else {
      if (line.sku === undefined) throw ValidationError.field(`${at}.sku`, 'is required when there is no projectId');
      if (line.pageCount === undefined) throw ValidationError.field(`${at}.pageCount`, 'is required with a sku');
      product = await asBadRequest(() => findProduct(ctx, line.sku!, `${at}.sku`));
      // The bounds a book of the product is built and edited within: a bound book's count is even.
      const { minPages, maxPages } = evenPageBounds(product.specifications.min.pages, product.specifications.max.pages);
      if (line.pageCount < minPages || line.pageCount > maxPages) {
        throw ValidationError.field(
          `${at}.pageCount`,
          `must be even, from ${minPages} to ${maxPages} for ${product.sku}`,
          'PAGE_LIMIT',
        );
      }
      pageCount = line.pageCount;
    }
    const price = await ctx.em.findOne(ProductPrice, { product, market });
    if (!price)
      throw ValidationError.field(
        line.projectId !== undefined ? `${at}.projectId` : `${at}.sku`,
        `${product.sku} has no price in market ${market.marketIdAlt}`,
        'NOT_SOLD_IN_MARKET',
      );
    const currency = currencyOf(market.currency.code, market.currency.decimals);
    lines.push({
      ...(line.projectId !== undefined ? { projectId: line.projectId } : {}),
      product,
      pageCount,
      quantity: line.quantity,
      basePrice: moneyOf(price.price, currency),
      extraCostPerPage: moneyOf(price.extraCostPerPage, currency),
    });
  }
  return lines;
}

/** A client's amount in the currency; more decimals than it has is a 400 naming the field. */
function clientAmount(amount: number, currency: ReturnType<typeof currencyOf>, path: string): Money {
  try {
    return moneyOf(amount, currency);
  } catch (error) {
    throw ValidationError.field(path, (error as Error).message);
  }
}

/** The catalogue look-ups answer 422 for a print; in a quote the client's field is simply invalid (400). */
async function asBadRequest<T>(lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof RejectedError) throw new ValidationError(error.errors, error.code);
    throw error;
  }
}
