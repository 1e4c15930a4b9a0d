import { describe, expect, it } from 'vitest';
import { checkAddress } from '../../../src/services/orders/address-check';

/** The offline checks of a destination, as /v2/print and the order actions call them. */
describe('checkAddress', () => {
  const eu = {
    marketIdAlt: 'eu',
    shipsWithin: [
      { isoCode2: 'EU', name: { en: 'Europe' } },
      { isoCode2: 'CH', name: { en: 'Switzerland' } },
    ],
  };
  const asia = { marketIdAlt: 'jp', shipsWithin: [{ isoCode2: 'JP', name: { en: 'Japan' } }] };
  const us = {
    marketIdAlt: 'us',
    shipsWithin: [
      { isoCode2: 'US', name: { en: 'United States' } },
      { isoCode2: 'CA', name: { en: 'Canada' } },
    ],
  };
  const codes = (result: ReturnType<typeof checkAddress>) => result.problems.map((p) => `${p.code} ${p.path}`);

  it('covers a country by its own code or its continent', () => {
    expect(codes(checkAddress(eu, { countryIso2: 'PT', postcode: '1000-001' }))).toEqual([]);
    expect(codes(checkAddress(eu, { countryIso2: 'CH', postcode: '8001' }))).toEqual([]);
    expect(codes(checkAddress(eu, { countryIso2: 'JP', postcode: '100-0001' }))).toEqual([
      'COUNTRY_NOT_SHIPPED user.address.countryIso2',
    ]);
  });

  it("checks the postcode's letters and digits against the country's format, whatever the separators", () => {
    expect(codes(checkAddress(asia, { countryIso2: 'JP', postcode: '1000001' }))).toEqual([]);
    expect(codes(checkAddress(eu, { countryIso2: 'PL', postcode: '00950' }))).toEqual([]);
    expect(codes(checkAddress(eu, { countryIso2: 'GB', postcode: 'sw1a1aa' }))).toEqual([]);
    expect(codes(checkAddress(eu, { countryIso2: 'DE', postcode: '1011' }))).toEqual([
      'INVALID_POSTCODE user.address.postcode',
    ]);
    expect(codes(checkAddress(eu, { countryIso2: 'NL', postcode: '12345' }))).toEqual([
      'INVALID_POSTCODE user.address.postcode',
    ]);
  });

  it('needs a real state or province where carriers do, by code or name, and answers its code', () => {
    expect(checkAddress(us, { countryIso2: 'US', postcode: '94043', state: 'US-CA' }).state).toBe('CA');
    expect(checkAddress(us, { countryIso2: 'CA', postcode: 'K1A 0B1', state: 'Québec' }).state).toBe('QC');
    expect(checkAddress(us, { countryIso2: 'CA', postcode: 'K1A 0B1', state: 'quebec' }).state).toBe('QC');
    expect(codes(checkAddress(us, { countryIso2: 'US', postcode: '94043', state: ' ' }))).toEqual([
      'STATE_REQUIRED user.address.state',
    ]);
    expect(codes(checkAddress(us, { countryIso2: 'US', postcode: '94043', state: 'ZZ' }))).toEqual([
      'INVALID_STATE user.address.state',
    ]);
    // Elsewhere the state is free text and left as it is.
    expect(checkAddress(eu, { countryIso2: 'DE', postcode: '10117', state: 'Berlin' })).toEqual({ problems: [] });
  });

  it('normalises a telephone to E.164, reading national numbers as the destination dials them', () => {
    expect(checkAddress(eu, { countryIso2: 'DE', postcode: '10117', telephone: '030 1234567' }).telephone).toBe(
      '+49301234567',
    );
    expect(checkAddress(eu, { countryIso2: 'FR', postcode: '75001', telephone: '+44 20 7946 0958' }).telephone).toBe(
      '+442079460958',
    );
    expect(codes(checkAddress(eu, { countryIso2: 'DE', postcode: '10117', telephone: '12' }))).toEqual([
      'INVALID_PHONE user.telephone',
    ]);
  });

  it('names the fields as the caller sent them', () => {
    const paths = {
      countryIso2: 'recipient.countryIso2',
      postcode: 'recipient.postcode',
      state: 'recipient.state',
      telephone: 'recipient.phone',
    };
    expect(codes(checkAddress(us, { countryIso2: 'US', postcode: 'x', telephone: 'no' }, paths))).toEqual([
      'INVALID_POSTCODE recipient.postcode',
      'STATE_REQUIRED recipient.state',
      'INVALID_PHONE recipient.phone',
    ]);
  });
});
