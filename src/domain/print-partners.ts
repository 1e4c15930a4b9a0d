/**
 * The print partners a shop may send jobs to through their own APIs (docs/api.md, Printers): each
 * shop holds its own account with each, per environment. `dev` talks to the partner's sandbox,
 * `prod` to its live API.
 */
export const PRINT_PARTNERS = ['prodigi', 'gelato', 'lulu'] as const;
export type PrintPartner = (typeof PRINT_PARTNERS)[number];

export function isPrintPartner(value: unknown): value is PrintPartner {
  return typeof value === 'string' && (PRINT_PARTNERS as readonly string[]).includes(value);
}

/**
 * A catalogue product's id at each partner (`products[].partnerProducts` in the catalogue file):
 * Prodigi's `sku`, Gelato's `productUid`, Lulu's `pod_package_id`. A partner with no id here is
 * refused the job (PrinterRejectedJob), never sent a guess.
 */
export type PartnerProductIds = Partial<Record<PrintPartner, string>>;

/** What each partner calls the credential an account holds, as the CLI and GraphQL ask for it. */
export const PARTNER_CREDENTIALS: Record<
  PrintPartner,
  { fields: readonly ('apiKey' | 'clientKey' | 'clientSecret')[] }
> = {
  // Prodigi: one API key, sent as X-API-Key.
  prodigi: { fields: ['apiKey'] },
  // Gelato: one API key, sent as X-API-KEY.
  gelato: { fields: ['apiKey'] },
  // Lulu: an OAuth2 client (client credentials grant); the secret also keys its webhook HMAC.
  lulu: { fields: ['clientKey', 'clientSecret'] },
};

/** An account's credentials, by the partner's own names. */
export interface PartnerCredentials {
  apiKey?: string;
  clientKey?: string;
  clientSecret?: string;
}
