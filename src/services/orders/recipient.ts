import type { ShippingAddress } from '../../db/entities/Order';
import { ValidationError, type FieldError } from '../../domain/errors';
import { countryByIso2 } from './countries';

/** The recipient as `/v2/print` takes it (`user`) and `update-recipient` again. */
export interface RecipientInput {
  firstName?: string;
  lastName?: string;
  telephone?: string;
  address: { line1: string; line2?: string; postcode: string; city?: string; state?: string; company?: string; countryIso2: string };
}

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
  if (text(address?.countryIso2) && !country) errors.push({ path: `${path}.address.countryIso2`, message: 'must be an ISO 3166-1 alpha-2 country code' });
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
  if (!method || method.length > 100) throw ValidationError.field(`${path}.method`, 'is required (at most 100 characters)');
  return { method };
}
