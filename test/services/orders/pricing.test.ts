import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadDemoCatalogue } from '../../../src/services/catalogue/catalogue-import';
import { asNumber, currencyOf, decimal, moneyOf } from '../../../src/services/money/money';
import { priceOrder } from '../../../src/services/orders/pricing';

/*
 * Totals are exact to the minor unit in every currency of the demo catalogue: priceOrder (dinero.js)
 * is compared with an oracle written here in BigInt minor units, over generated quantities, page
 * counts, coupons, levels and tax rates, with tax included and added.
 */

const catalogue = await loadDemoCatalogue();

/** "19.99" in a currency of 2 decimals -> 1999n. */
function minor(amount: number | string, decimals: number): bigint {
  const [whole, fraction = ''] = String(amount).split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

function formatted(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}

/** A rate "25.5" as parts of a hundred-scaled integer: 255 / 1000. */
function rateParts(rate: string): { parts: bigint; per: bigint } {
  const [whole, fraction = ''] = rate.split('.');
  return { parts: BigInt(whole + fraction), per: 100n * 10n ** BigInt(fraction.length) };
}

const divideHalfAwayFromZero = (numerator: bigint, denominator: bigint) =>
  (2n * numerator + denominator) / (2n * denominator);

const markets = catalogue.markets.map((market) => {
  const currency = catalogue.currencies.find((c) => c.code === market.currency)!;
  const products = catalogue.products.map((p) => ({
    product: p,
    price: p.prices.find((price) => price.marketId === market.marketId)!,
  }));
  const levels = (market.shippingLevels ?? []).map(
    (level) => level.prices.find((p) => p.currency === market.currency)!.price,
  );
  const rates = [...new Set(['0', ...(market.taxRates ?? []).map((t) => String(t.rate))])];
  return { market, currency, products, levels, rates };
});

describe('order pricing is exact to the minor unit in every demo currency', () => {
  it('covers each currency of the demo catalogue', () => {
    expect(new Set(markets.map((m) => m.currency.code))).toEqual(new Set(catalogue.currencies.map((c) => c.code)));
  });

  for (const { market, currency, products, levels, rates } of markets) {
    it(`${currency.code} (market ${market.marketIdAlt}, ${currency.decimals} decimals)`, () => {
      const line = fc.record({
        product: fc.integer({ min: 0, max: products.length - 1 }),
        pageStep: fc.integer({ min: 0, max: 200 }),
        quantity: fc.integer({ min: 1, max: 1000 }),
      });
      fc.assert(
        fc.property(
          fc.array(line, { minLength: 1, maxLength: 6 }),
          fc.integer({ min: 0, max: levels.length }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.constantFrom(...rates, '7', '8.1', '25.5', '17.125'),
          fc.boolean(),
          (drawn, levelIndex, couponShare, taxRate, pricesIncludeTax) => {
            const dinero = currencyOf(currency.code, currency.decimals);
            const lines = drawn.map(({ product, pageStep, quantity }) => {
              const { product: p, price } = products[product];
              const { min, max } = p.specifications;
              return { p, price, pageCount: min.pages + (pageStep % (max.pages - min.pages + 1)), quantity };
            });
            const shippingPrice = levelIndex < levels.length ? levels[levelIndex] : 0;

            // The oracle, in BigInt minor units.
            const d = currency.decimals;
            const lineTotals = lines.map(
              (l) =>
                (minor(l.price.price, d) +
                  minor(l.price.extraCostPerPage, d) *
                    BigInt(Math.max(0, l.pageCount - l.p.specifications.min.pages))) *
                BigInt(l.quantity),
            );
            const subTotal = lineTotals.reduce((a, b) => a + b, 0n);
            const shipping = minor(shippingPrice, d);
            const coupon = BigInt(Math.floor(Number(subTotal) * couponShare));

            const priced = priceOrder({
              currency: dinero,
              lines: lines.map((l) => ({
                basePrice: moneyOf(l.price.price, dinero),
                extraCostPerPage: moneyOf(l.price.extraCostPerPage, dinero),
                basePages: l.p.specifications.min.pages,
                pageCount: l.pageCount,
                quantity: l.quantity,
              })),
              shipping: moneyOf(shippingPrice, dinero),
              coupon: moneyOf(formatted(coupon, d), dinero),
              taxRate,
              pricesIncludeTax,
            });

            priced.lines.forEach((pricedLine, i) =>
              expect(decimal(pricedLine.lineTotal)).toBe(formatted(lineTotals[i], d)),
            );
            expect(decimal(priced.subTotal)).toBe(formatted(subTotal, d));
            const discounts = priced.lines.map((l) => minor(decimal(l.discount), d));
            expect(discounts.reduce((a, b) => a + b, 0n)).toBe(coupon);
            discounts.forEach((discount, i) => expect(discount >= 0n && discount <= lineTotals[i]).toBe(true));

            const { parts, per } = rateParts(taxRate);
            const taxable = [...lineTotals.map((total, i) => total - discounts[i]), shipping];
            const taxes = [...priced.lines.map((l) => minor(decimal(l.tax), d)), minor(decimal(priced.shippingTax), d)];
            taxable.forEach((amount, i) => {
              if (pricesIncludeTax) {
                // tax / amount is rate / (100 + rate) to within one minor unit.
                const exact = amount * parts;
                const scaled = taxes[i] * (per + parts);
                expect(scaled - exact < per + parts && exact - scaled < per + parts).toBe(true);
              } else {
                expect(taxes[i]).toBe(divideHalfAwayFromZero(amount * parts, per));
              }
            });
            const taxTotal = taxes.reduce((a, b) => a + b, 0n);
            expect(decimal(priced.taxTotal)).toBe(formatted(taxTotal, d));
            const grandTotal = subTotal + shipping - coupon + (pricesIncludeTax ? 0n : taxTotal);
            expect(decimal(priced.grandTotal)).toBe(formatted(grandTotal, d));
            // What JSON carries writes the same digits back.
            expect(minor(String(asNumber(priced.grandTotal)), d)).toBe(grandTotal);
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});

describe('money from decimal text', () => {
  const eur = currencyOf('EUR', 2);
  it('reads the digits, not a float product: 0.1 + 0.2 is 0.30', () => {
    const { lines, subTotal } = priceOrder({
      currency: eur,
      lines: [0.1, 0.2].map((price) => ({
        basePrice: moneyOf(price, eur),
        extraCostPerPage: moneyOf(0, eur),
        basePages: 24,
        pageCount: 24,
        quantity: 1,
      })),
      shipping: moneyOf(0, eur),
      coupon: moneyOf(0, eur),
      taxRate: '0',
      pricesIncludeTax: true,
    });
    expect(lines.map((l) => decimal(l.lineTotal))).toEqual(['0.10', '0.20']);
    expect(decimal(subTotal)).toBe('0.30');
  });

  it('refuses more decimals than the currency has', () => {
    expect(() => moneyOf(1.005, eur)).toThrow(/more decimals/);
    expect(() => moneyOf(1, currencyOf('JPY', 0))).not.toThrow();
    expect(() => moneyOf(0.5, currencyOf('JPY', 0))).toThrow(/more decimals/);
  });
});
