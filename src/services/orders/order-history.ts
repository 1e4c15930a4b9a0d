import { Order, ProductPrice, Product, type Market } from '../../db/entities';
import type { RequestContext } from '../context';
import type { FileStore } from '../../storage/file-store';
import { normaliseEmail } from '../projects/user-identity';
import { assertDateIdCursor, isUuid } from '../cursors';
import { pick } from '../../domain/localized';
import { displayStatusOf } from '../../domain/order-status';
import { ORDER_HISTORY_PAGE_SIZE } from '../../domain/limits';
import type { OrderHistoryEntry, OrderHistoryPage } from './order-history-view';

/**
 * docs/api.md, Order history: a user's orders by e-mail, newest first, 10 a page, with keyset cursors. Dates
 * are shown in the server's time zone (TZ); `timestamp` is Unix seconds for clients to convert.
 */
export async function orderHistory(
  ctx: RequestContext,
  files: FileStore,
  timezone: string,
  query: { email: string; language: string; cursor?: string },
): Promise<OrderHistoryPage> {
  const email = normaliseEmail(query.email, 'email');
  if (query.cursor !== undefined) assertDateIdCursor(query.cursor, 'cursor', isUuid);
  const page = await ctx.em.findByCursor(
    Order,
    { email },
    {
      first: ORDER_HISTORY_PAGE_SIZE,
      after: query.cursor,
      orderBy: { createdAt: 'desc', id: 'desc' },
      populate: ['lines', 'lines.project', 'market'],
      includeCount: false,
    },
  );
  const skus = [...new Set(page.items.flatMap((o) => o.lines.getItems().map((l) => l.sku)))];
  const products = await ctx.em.find(Product, { sku: { $in: skus } });
  const prices = await ctx.em.find(ProductPrice, {
    product: { $in: products },
    market: { $in: page.items.map((o) => o.market) },
  });
  const productBySku = new Map(products.map((p) => [p.sku, p]));
  const priceOf = (sku: string, marketId: string) =>
    prices.find((p) => p.product.id === productBySku.get(sku)?.id && p.market.id === marketId);

  const results = page.items.map((order): OrderHistoryEntry => {
    const address = order.shippingAddress;
    return {
      orderId: order.orderId,
      ...dates(order.createdAt, timezone),
      email,
      sourceOrderId: order.paymentReference ?? order.orderId,
      orders: order.lines.getItems().map((line) => {
        const product = productBySku.get(line.sku);
        const price = priceOf(line.sku, order.market.id);
        return {
          title: line.title,
          coverPreview: line.coverPreviewKey ? files.previewUrl(line.coverPreviewKey) : '',
          quantity: line.quantity,
          total: line.lineItemTotal,
          product: {
            name: product ? pick(product.name, query.language) : line.sku,
            basePrice: price?.price ?? 0,
            extraCostPerPage: price?.extraCostPerPage ?? 0,
          },
          displayStatus: displayStatusOf(line.status),
        };
      }),
      orderStatus: order.paymentStatus,
      shippingAddress: {
        firstname: order.firstName ?? '',
        lastname: order.lastName ?? '',
        address_1: address.line1,
        ...(address.line2 ? { address_2: address.line2 } : {}),
        city: address.city ?? '',
        postcode: address.postcode,
        state: address.state ?? '',
        country: address.country,
      },
      shippingCost: order.shippingCost,
      ...(order.shippingLevel ? { shippingLevel: levelView(order.market, order.shippingLevel, query.language) } : {}),
      voucher: order.couponCode ?? '',
      voucherAmount: order.couponValue,
      subTotal: order.subTotal,
      grandTotal: order.grandTotal,
    };
  });
  return { results, ...(page.hasNextPage && page.endCursor ? { cursor: page.endCursor } : {}) };
}

/** The level by its code, named in the language; a level the catalogue no longer has keeps its code as its name. */
function levelView(market: Market, code: string, language: string): { code: string; name: string } {
  const level = market.shippingLevels.find((l) => l.code === code);
  return { code, name: level ? pick(level.name, language) : code };
}

/** `DD-MM-YYYY HH:mm` and `YYYY-MM-DD HH:mm:ss` in the server's time zone, and Unix seconds. */
function dates(at: Date, timezone: string): { displayDate: string; date: string; timestamp: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    displayDate: `${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute}`,
    date: `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`,
    timestamp: Math.floor(at.getTime() / 1000),
  };
}
