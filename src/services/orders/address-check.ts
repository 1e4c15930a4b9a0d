import { iso31662 } from 'iso-3166';
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import type { Market } from '../../db/entities';
import { marketShipsTo } from '../markets/destination';

/**
 * Countries whose carriers need the state or province on the label (USPS/UPS/FedEx for US and CA,
 * Australia Post, Correios, India Post, Mexico's SEPOMEX): elsewhere the postcode decides.
 */
const STATE_REQUIRED_COUNTRIES = ['US', 'CA', 'AU', 'BR', 'IN', 'MX'] as const;

interface AddressProblem {
  code: string;
  /** The field of `/v2/print` at fault. */
  path: string;
  message: string;
}

export interface AddressToCheck {
  countryIso2: string;
  postcode: string;
  state?: string | null;
  telephone?: string | null;
}

export interface CheckedAddress {
  problems: AddressProblem[];
  /** The ISO 3166-2 subdivision code without its country (`CA` of `US-CA`), where the country needs one. */
  state?: string;
  /** The telephone in E.164 (`+49301234567`), when one was given. */
  telephone?: string;
}

/**
 * The checks a destination must pass before an order is written, all with offline data: the
 * market ships there (`shipsWithin`), the postcode has the country's format (postcode-validator's
 * patterns; a country without a known format passes), a state or province is given and exists
 * (ISO 3166-2, by code or name) where carriers need one, and a telephone, when given, is a valid
 * number (libphonenumber-js, national numbers read as the destination's), answered in E.164.
 * `paths` names the fields as the caller's request does.
 */
export function checkAddress(
  market: Pick<Market, 'shipsWithin' | 'marketIdAlt'>,
  address: AddressToCheck,
  paths = {
    countryIso2: 'user.address.countryIso2',
    postcode: 'user.address.postcode',
    state: 'user.address.state',
    telephone: 'user.telephone',
  },
): CheckedAddress {
  const problems: AddressProblem[] = [];
  const country = address.countryIso2.trim().toUpperCase();
  if (!marketShipsTo(market, country)) {
    problems.push({
      code: 'COUNTRY_NOT_SHIPPED',
      path: paths.countryIso2,
      message: `market ${market.marketIdAlt} does not ship to ${country}`,
    });
  }
  const postcode = address.postcode.trim();
  if (postcodeValidatorExistsForCountry(country) && !postcodeMatches(postcode, country)) {
    problems.push({
      code: 'INVALID_POSTCODE',
      path: paths.postcode,
      message: `"${postcode}" is not a postcode of ${country}`,
    });
  }
  const checked: CheckedAddress = { problems };
  if ((STATE_REQUIRED_COUNTRIES as readonly string[]).includes(country)) {
    const state = address.state?.trim();
    const subdivision = state ? findSubdivision(country, state) : undefined;
    if (!state) problems.push({ code: 'STATE_REQUIRED', path: paths.state, message: `is required for ${country}` });
    else if (!subdivision)
      problems.push({
        code: 'INVALID_STATE',
        path: paths.state,
        message: `"${state}" is not a state or province of ${country}`,
      });
    else checked.state = subdivision.code.slice(country.length + 1);
  }
  const telephone = address.telephone?.trim();
  if (telephone) {
    const parsed = parsePhone(telephone, country);
    if (!parsed?.isValid())
      problems.push({
        code: 'INVALID_PHONE',
        path: paths.telephone,
        message: `"${telephone}" is not a valid telephone number`,
      });
    else checked.telephone = parsed.number;
  }
  return checked;
}

/**
 * The postcode has the country's format, whatever its separators: `1000001` is Japan's `100-0001`
 * and `00950` Poland's `00-950` as customers type them; the letters and digits are what is checked.
 */
function postcodeMatches(postcode: string, country: string): boolean {
  if (postcodeValidator(postcode, country)) return true;
  const compact = postcode.replace(/[\s-]+/g, '');
  const candidates = [compact];
  for (let at = 1; at < compact.length; at++)
    candidates.push(`${compact.slice(0, at)}-${compact.slice(at)}`, `${compact.slice(0, at)} ${compact.slice(at)}`);
  return candidates.some((candidate) => postcodeValidator(candidate, country));
}

/** A number in international form, or national as dialled in the destination country; undefined if unreadable. */
function parsePhone(telephone: string, country: string) {
  try {
    return parsePhoneNumberFromString(telephone, isCountryCode(country) ? country : undefined);
  } catch {
    return undefined; // a country libphonenumber has no metadata for reads only international numbers
  }
}

function isCountryCode(country: string): country is CountryCode {
  return isSupportedCountry(country);
}

/** A subdivision of a country by its code (`CA`, `US-CA`) or its name (`California`, any case and accents). */
function findSubdivision(country: string, state: string) {
  const wanted = fold(state);
  const code = wanted.toUpperCase();
  return iso31662.find(
    (entry) =>
      entry.parent === country &&
      (entry.code === code || entry.code === `${country}-${code}` || fold(entry.name) === wanted),
  );
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toLowerCase();
}
