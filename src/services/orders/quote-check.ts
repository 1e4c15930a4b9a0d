import { equal } from 'dinero.js';
import { Quote } from '../../db/entities';
import type { RequestContext } from '../context';
import { ConflictError, DomainError, NotFoundError, type FieldError } from '../../domain/errors';
import { currencyOf, moneyOf } from '../money/money';

/** An order as `/v2/print` is about to write it, in the terms a quote priced. */
export interface OrderAgainstQuote {
  marketId: number;
  currency: { code: string; decimals: number };
  countryIso2: string;
  /** The matched level's code; null where the market has no levels. */
  shippingLevel: string | null;
  lines: {
    projectId: string;
    sku: string;
    /** The book's interior pages now; undefined while it is (re)built. */
    pageCount: number | undefined;
    /** The order rebuilds the book from its own photos: laid out to the quote's page count, which it then holds. */
    rebuilt: boolean;
    quantity: number;
    lineItemTotal: number;
  }[];
  shippingCost: number;
  couponValue: number;
  grandTotal: number;
}

/**
 * Holds an order to the quote it names: an unknown quote (or another tenant's) is a 404, an
 * expired one a 409 `QUOTE_EXPIRED`, and an order that differs from it in any line (project, sku,
 * page count, quantity, total), level, destination or total a 409 `QUOTE_MISMATCH` listing every
 * difference by the order's field. Amounts compare exactly, in the currency's minor units.
 */
export async function checkAgainstQuote(
  ctx: RequestContext,
  quoteId: string,
  order: OrderAgainstQuote,
  now = new Date(),
): Promise<Quote> {
  const quote = await ctx.em.findOne(Quote, { id: String(quoteId) });
  if (!quote) throw new NotFoundError('quote', quoteId, 'quoteId');
  if (quote.expiresAt.getTime() <= now.getTime()) {
    throw new ConflictError(
      'QUOTE_EXPIRED',
      `quoteId: quote ${quote.id} expired at ${quote.expiresAt.toISOString()}; ask for a new quote`,
    );
  }
  const differences = quoteDifferences(quote, order);
  if (differences.length > 0) {
    throw new DomainError(
      'conflict',
      'QUOTE_MISMATCH',
      `the order differs from quote ${quote.id}: ${differences.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
      differences,
    );
  }
  return quote;
}

function quoteDifferences(quote: Quote, order: OrderAgainstQuote): FieldError[] {
  const differences: FieldError[] = [];
  const currency = currencyOf(order.currency.code, order.currency.decimals);
  const sameAmount = (sent: number, quoted: string) => {
    try {
      return quote.currency === order.currency.code && equal(moneyOf(sent, currency), moneyOf(quoted, currency));
    } catch {
      return false; // more decimals than the currency has: not the quoted amount
    }
  };
  const differ = (path: string, message: string) => differences.push({ path, message });

  if (quote.marketId !== order.marketId)
    differ(
      'projects[0].product.marketId',
      `the order is in market ${order.marketId}; the quote is for market ${quote.marketId}`,
    );
  if (quote.countryIso2 !== order.countryIso2)
    differ('user.address.countryIso2', `is ${order.countryIso2}; the quote is for ${quote.countryIso2}`);
  if (quote.lines.length !== order.lines.length)
    differ('projects', `lists ${order.lines.length} projects; the quote priced ${quote.lines.length} lines`);
  quote.lines.forEach((quoted, i) => {
    const line = order.lines[i];
    if (!line) return;
    const at = `projects[${i}]`;
    if (quoted.projectId !== undefined && quoted.projectId !== line.projectId)
      differ(`${at}.id`, `is ${line.projectId}; the quote priced ${quoted.projectId}`);
    if (quoted.sku !== line.sku) differ(`${at}.product.sku`, `is ${line.sku}; the quote priced ${quoted.sku}`);
    if (line.pageCount === undefined) {
      // A book the order rebuilds is laid out to a sku quote's count; one still being built by generate is not the order's to lay out.
      if (quoted.projectId !== undefined || !line.rebuilt)
        differ(
          `${at}.id`,
          `the book is being built, so its page count cannot be held to the quoted ${quoted.pageCount}`,
        );
    } else if (line.pageCount !== quoted.pageCount) {
      differ(`${at}.id`, `the book has ${line.pageCount} pages; the quote priced ${quoted.pageCount}`);
    }
    if (quoted.quantity !== line.quantity)
      differ(`${at}.quantity`, `is ${line.quantity}; the quote priced ${quoted.quantity}`);
    if (!sameAmount(line.lineItemTotal, quoted.lineTotal))
      differ(`${at}.lineItemTotal`, `is ${line.lineItemTotal}; the quote's line total is ${quoted.lineTotal}`);
  });
  if ((quote.shippingLevel ?? null) !== order.shippingLevel) {
    differ(
      'payment.shipping.method',
      `ships with ${order.shippingLevel ?? 'no level'}; the quote is for ${quote.shippingLevel ?? 'no level'}`,
    );
  }
  if (!sameAmount(order.shippingCost, quote.totals.shipping))
    differ('payment.shipping.cost', `is ${order.shippingCost}; the quote's shipping is ${quote.totals.shipping}`);
  if (!sameAmount(order.couponValue, quote.totals.coupon))
    differ('payment.coupon.value', `is ${order.couponValue}; the quote's coupon is ${quote.totals.coupon}`);
  if (!sameAmount(order.grandTotal, quote.totals.grandTotal))
    differ('payment.grandTotal', `is ${order.grandTotal}; the quote's grand total is ${quote.totals.grandTotal}`);
  return differences;
}
