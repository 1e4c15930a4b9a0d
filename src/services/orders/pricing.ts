import {
  add,
  allocate,
  halfAwayFromZero,
  isZero,
  multiply,
  toSnapshot,
  transformScale,
  type DineroCurrency,
} from 'dinero.js';
import { minus, sum, zero, type Money } from '../money/money';

/** One book line to price: the market's prices of its product and the book's page count. */
interface LineToPrice {
  basePrice: Money;
  extraCostPerPage: Money;
  /** Pages the base price includes: the product's `min.pages`. */
  basePages: number;
  pageCount: number;
  quantity: number;
}

export interface OrderToPrice {
  currency: DineroCurrency<number, string>;
  lines: LineToPrice[];
  shipping: Money;
  /** Off the books (not the shipping); at most their sum. */
  coupon: Money;
  /** Percent, as decimal text ("19", "25.5"), for the destination. */
  taxRate: string;
  /** The catalogue's `pricesIncludeTax`: tax is inside the prices (split out) or added on top. */
  pricesIncludeTax: boolean;
}

interface PricedLine {
  extraPages: number;
  /** Per copy: extraPages × extraCostPerPage. */
  extraPagesCost: Money;
  /** Per copy: basePrice + extraPagesCost. */
  unitPrice: Money;
  /** unitPrice × quantity. */
  lineTotal: Money;
  /** This line's share of the coupon. */
  discount: Money;
  /** Tax on lineTotal − discount. */
  tax: Money;
}

export interface PricedOrder {
  lines: PricedLine[];
  subTotal: Money;
  shipping: Money;
  shippingTax: Money;
  coupon: Money;
  taxTotal: Money;
  grandTotal: Money;
}

/**
 * Prices an order exactly, in minor units: line totals, the coupon split over the lines in
 * proportion to their totals (dinero's allocate: the parts always add up to the coupon), tax per
 * line and on shipping at the destination's rate, included (split out of each amount) or added
 * (rounded half away from zero per amount), and the grand total Σ lines + shipping − coupon (+ tax
 * when added). Pure: the quote, the order check and the property tests call the same function.
 */
export function priceOrder(order: OrderToPrice): PricedOrder {
  const { currency } = order;
  const priced = order.lines.map((line) => {
    const extraPages = Math.max(0, line.pageCount - line.basePages);
    const extraPagesCost = multiply(line.extraCostPerPage, extraPages);
    const unitPrice = add(line.basePrice, extraPagesCost);
    return { extraPages, extraPagesCost, unitPrice, lineTotal: multiply(unitPrice, line.quantity) };
  });
  const subTotal = sum(
    priced.map((line) => line.lineTotal),
    currency,
  );
  const discounts = splitCoupon(
    order.coupon,
    priced.map((line) => line.lineTotal),
    currency,
  );
  const rate = ratioOf(order.taxRate);
  const taxOf = (amount: Money) =>
    order.pricesIncludeTax ? includedTax(amount, rate) : addedTax(amount, rate, currency.exponent);
  const lines = priced.map((line, i) => ({
    ...line,
    discount: discounts[i],
    tax: taxOf(minus(line.lineTotal, discounts[i])),
  }));
  const shippingTax = taxOf(order.shipping);
  const taxTotal = sum([...lines.map((line) => line.tax), shippingTax], currency);
  const beforeTax = minus(add(subTotal, order.shipping), order.coupon);
  return {
    lines,
    subTotal,
    shipping: order.shipping,
    shippingTax,
    coupon: order.coupon,
    taxTotal,
    grandTotal: order.pricesIncludeTax ? beforeTax : add(beforeTax, taxTotal),
  };
}

function splitCoupon(coupon: Money, totals: Money[], currency: DineroCurrency<number, string>): Money[] {
  const weights = totals.map((total) => toSnapshot(total).amount);
  if (isZero(coupon) || weights.every((w) => w === 0)) return totals.map(() => zero(currency));
  return allocate(coupon, weights);
}

/** A percentage as an integer ratio: "25.5" -> 255 parts of 1000 per hundred. */
interface Ratio {
  parts: number;
  perHundred: number;
  scale: number;
}

function ratioOf(percent: string): Ratio {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(percent);
  if (!match) throw new RangeError(`${percent} is not a tax rate`);
  const fraction = match[2] ?? '';
  return { parts: Number(match[1] + fraction), perHundred: 100 * 10 ** fraction.length, scale: fraction.length };
}

/** The tax inside a gross amount: gross × rate / (100 + rate), whole minor units, net + tax = gross exactly. */
function includedTax(gross: Money, rate: Ratio): Money {
  if (rate.parts === 0 || isZero(gross)) return multiply(gross, 0);
  const [tax] = allocate(gross, [rate.parts, rate.perHundred]);
  return tax;
}

/** Tax on top of a net amount, rounded half away from zero to the currency's minor unit. */
function addedTax(net: Money, rate: Ratio, exponent: number): Money {
  const exact = multiply(net, { amount: rate.parts, scale: rate.scale + 2 });
  return transformScale(exact, exponent, halfAwayFromZero);
}
