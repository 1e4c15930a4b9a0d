import { describe, expect, it } from 'vitest';
import { loadDemoCatalogue } from '../../../src/services/catalogue/catalogue-import';
import { parseCatalogueFile } from '../../../src/services/catalogue/catalogue-file';
import { ValidationError } from '../../../src/domain/errors';

/** The catalogue file's shipping levels and tax rates are checked on import like the rest of it. */
describe('catalogue: shipping levels and tax rates', () => {
  it('the demo catalogue gives every market levels with a price in its currency and a default', async () => {
    const demo = await loadDemoCatalogue();
    for (const market of demo.markets) {
      expect(market.shippingLevels?.length).toBeGreaterThanOrEqual(2);
      expect(market.shippingLevels!.filter((l) => l.default).map((l) => l.code)).toEqual(['standard']);
      for (const level of market.shippingLevels!)
        expect(level.prices.map((p) => p.currency)).toContain(market.currency);
    }
  });

  it("lists every problem of a market's levels and rates by path", async () => {
    const file = structuredClone(await loadDemoCatalogue());
    const [eu, , , jp] = file.markets;
    const [standard, express] = eu.shippingLevels!;
    express.code = 'standard';
    express.default = true;
    standard.prices = [{ currency: 'USD', price: 5 }];
    standard.destinations[0].transitDays = { min: 5, max: 2 };
    standard.destinations.push({ isoCode2: 'US', transitDays: { min: 1, max: 2 } });
    jp.shippingLevels![0].prices[0].price = 800.5;
    eu.taxRates!.push({ isoCode2: 'DE', rate: 7 });
    file.products[0].prices[0].price = 19.999;

    let problems: { path: string; message: string }[] = [];
    try {
      parseCatalogueFile(file);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('INVALID_CATALOGUE');
      problems = (error as ValidationError).errors;
    }
    const paths = problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'markets[0].shippingLevels[1].code',
        'markets[0].shippingLevels[0].prices',
        'markets[0].shippingLevels[0].destinations[0].transitDays.min',
        `markets[0].shippingLevels[0].destinations[${standard.destinations.length - 1}].isoCode2`,
        'markets[0].shippingLevels',
        'markets[3].shippingLevels[0].prices[0].price',
        `markets[0].taxRates[${eu.taxRates!.length - 1}].isoCode2`,
        'products[0].prices[0].price',
      ]),
    );
    expect(problems.find((p) => p.path === 'markets[3].shippingLevels[0].prices[0].price')?.message).toBe(
      'has more decimals than JPY (0)',
    );
  });

  it('refuses a level without a code or destinations, naming the field', async () => {
    const file = structuredClone(await loadDemoCatalogue()) as any;
    delete file.markets[1].shippingLevels[0].code;
    file.markets[1].shippingLevels[1].destinations = [];
    expect(() => parseCatalogueFile(file)).toThrow(
      /markets\[1\]\.shippingLevels\[0\]\.code: is required.*markets\[1\]\.shippingLevels\[1\]\.destinations/,
    );
  });
});
