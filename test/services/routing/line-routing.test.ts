import { describe, expect, it } from 'vitest';
import { chooseRoute } from '../../../src/services/routing/line-routing';
import type { RoutingRule } from '../../../src/domain/print-routing';

const rules: RoutingRule[] = [
  { match: { products: ['PB-HC-A4-P'], countries: ['US', 'CA'] }, printers: ['lulu', 'prodigi'] },
  { match: { countries: ['DE', 'AT'] }, printers: ['gelato', 'local'] },
  { match: { products: ['PB-HC-A4-P'] }, printers: ['prodigi'] },
];

describe('choosing a line’s printers', () => {
  it('takes the first rule whose products and countries both match', () => {
    expect(chooseRoute({ rules, defaultPrinters: [] }, { sku: 'PB-HC-A4-P', countryIso2: 'us' }, 'local')).toEqual({
      printers: ['lulu', 'prodigi'],
      rule: 0,
    });
    // A rule without products matches every product; an earlier rule that names the product but not the country does not.
    expect(chooseRoute({ rules, defaultPrinters: [] }, { sku: 'PB-HC-A4-P', countryIso2: 'DE' }, 'local')).toEqual({
      printers: ['gelato', 'local'],
      rule: 1,
    });
    expect(chooseRoute({ rules, defaultPrinters: [] }, { sku: 'PB-HC-A4-P', countryIso2: 'FR' }, 'local')).toEqual({
      printers: ['prodigi'],
      rule: 2,
    });
  });

  it('falls back to the default printers, and with none to the process default (sandbox in dev, PRINTER live)', () => {
    expect(
      chooseRoute({ rules, defaultPrinters: ['http', 'local'] }, { sku: 'PB-SC-A5-P', countryIso2: 'FR' }, 'local'),
    ).toEqual({ printers: ['http', 'local'], rule: null });
    expect(
      chooseRoute({ rules: [], defaultPrinters: [] }, { sku: 'PB-SC-A5-P', countryIso2: 'FR' }, 'sandbox'),
    ).toEqual({
      printers: ['sandbox'],
      rule: null,
    });
  });
});
