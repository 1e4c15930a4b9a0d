import type { ShippingAddress } from '../../db/entities/Order';
import type { Market } from '../../db/entities';
import { RejectedError, ValidationError, type FieldError } from '../../domain/errors';
import { countryByIso2 } from './countries';
import { checkAddress } from './address-check';
import { OrderChecks } from './order-checks';
import { findLevel, reachOf } from './shipping-level';
import { Type } from 'typebox';
import { PrintInput } from './print-input';
import { schemaCheck } from '../schema-check';

/** The recipient as `/v2/print` takes it (`user`) and `update-recipient` again: the print input's one declaration. */
export type RecipientInput = PrintInput['user'];

/**
 * `update-recipient`'s user checked by the print input's schema of it, on every transport (REST's
 * body schema refused a bad one already; GraphQL's `updateOrderRecipient` types carry no limits).
 */
export const checkRecipientUpdate = schemaCheck(Type.Object({ user: PrintInput.properties.user }));

export interface CheckedRecipient {
  firstName: string | null;
  lastName: string | null;
  telephone: string | null;
  address: ShippingAddress;
}

/**
 * The one check of a recipient and its address, for `/v2/print` and `update-recipient` alike: the
 * required members present, the country a real ISO 3166-1 alpha-2 code. Every problem is reported
 * at once under `path` (`user` as `/v2/print` names it).
 */
export function checkRecipient(user: RecipientInput | undefined, path = 'user'): CheckedRecipient {
  const errors: FieldError[] = [];
  const address = user?.address;
  const text = (value: unknown) => typeof value === 'string' && value.trim().length > 0;
  if (!text(address?.line1)) errors.push({ path: `${path}.address.line1`, message: 'is required' });
  if (!text(address?.postcode)) errors.push({ path: `${path}.address.postcode`, message: 'is required' });
  if (!text(address?.countryIso2)) errors.push({ path: `${path}.address.countryIso2`, message: 'is required' });
  const country = text(address?.countryIso2) ? countryByIso2(address!.countryIso2) : null;
  if (text(address?.countryIso2) && !country)
    errors.push({ path: `${path}.address.countryIso2`, message: 'must be an ISO 3166-1 alpha-2 country code' });
  if (errors.length > 0) throw new ValidationError(errors);
  const a = address!;
  return {
    firstName: user!.firstName ?? null,
    lastName: user!.lastName ?? null,
    telephone: user!.telephone ?? null,
    address: {
      line1: a.line1.trim(),
      ...(a.line2 ? { line2: a.line2 } : {}),
      postcode: a.postcode.trim(),
      ...(a.city ? { city: a.city } : {}),
      ...(a.state ? { state: a.state } : {}),
      ...(a.company ? { company: a.company } : {}),
      isoCode2: country!.isoCode2,
      isoCode3: country!.isoCode3,
      country: country!.name,
    },
  };
}

/** The shipping choice as `update-shipping` takes it. */
export interface ShippingChoiceInput {
  method: string;
}

/** The one check of a shipping choice after the order (`shipping.method`: non-empty, at most 100 characters). */
export function checkShippingChoice(shipping: ShippingChoiceInput | undefined, path = 'shipping'): { method: string } {
  const method = typeof shipping?.method === 'string' ? shipping.method.trim() : '';
  if (!method || method.length > 100)
    throw ValidationError.field(`${path}.method`, 'is required (at most 100 characters)');
  return { method };
}

/**
 * What `update-recipient` checks once the order's market is known, as `/v2/print` checks a new
 * order: the market ships there, the postcode, state and telephone are the country's (normalised
 * as the print stores them), and the order's shipping level still reaches the new country.
 */
export function checkDestination(
  market: Pick<Market, 'shipsWithin' | 'marketIdAlt' | 'shippingLevels'>,
  recipient: CheckedRecipient,
  levelCode: string | null | undefined,
): CheckedRecipient {
  const country = recipient.address.isoCode2;
  const contact = checkAddress(market, {
    countryIso2: country,
    postcode: recipient.address.postcode,
    state: recipient.address.state,
    telephone: recipient.telephone,
  });
  const problems = [...contact.problems];
  const level = levelCode ? findLevel(market, levelCode) : undefined;
  if (level && !reachOf(level, country) && !problems.some((p) => p.code === 'COUNTRY_NOT_SHIPPED')) {
    problems.push({
      code: 'SHIPPING_LEVEL_UNAVAILABLE',
      path: 'user.address.countryIso2',
      message: `the order's shipping level "${level.code}" does not reach ${country}`,
    });
  }
  new OrderChecks('stopAtFirst').refuse('rejected', problems);
  return {
    ...recipient,
    telephone: contact.telephone ?? recipient.telephone,
    address: contact.state ? { ...recipient.address, state: contact.state } : recipient.address,
  };
}

/**
 * The level `update-shipping` asks for, matched as `/v2/print` matches `payment.shipping.method`
 * (by code or name, any case). Unlike a print, an explicit change to an unknown level is refused:
 * the order keeps the level it had. Null where the market has no levels.
 */
export function levelOfChoice(
  market: Pick<Market, 'marketIdAlt' | 'shippingLevels'>,
  method: string,
  country: string,
): string | null {
  if (market.shippingLevels.length === 0) return null;
  const level = findLevel(market, method);
  if (!level) {
    const codes = market.shippingLevels.map((l) => l.code).join(', ');
    throw ValidationError.field(
      'shipping.method',
      `"${method}" is not a shipping level of market ${market.marketIdAlt} (${codes})`,
      'UNKNOWN_SHIPPING_LEVEL',
    );
  }
  if (!reachOf(level, country))
    throw new RejectedError(
      'SHIPPING_LEVEL_UNAVAILABLE',
      'shipping.method',
      `"${level.code}" does not ship to ${country}`,
    );
  return level.code;
}
