import type { PhotoInput } from '../projects/photo-input';

/** `POST /v2/print` (docs/api.md, Print), as both transports pass it to the service. */
export interface PrintInput {
  orderId: string;
  /**
   * GraphQL only: the order is placed before the payment completes. Its lines wait (`waiting →
   * expiring → last call → abandoned` on ORDER_STATUS_TIMEOUT) until `confirmPayment`.
   */
  paymentPending?: boolean;
  projects: {
    id: string;
    product?: { psp?: string; sku?: string | number; marketId?: string | number };
    lineItemTotal: number;
    quantity: number;
    metadata?: Record<string, unknown>;
    photos?: PhotoInput[];
  }[];
  payment: {
    grandTotal: number;
    coupon?: { value: number; code: string };
    method?: string;
    reference?: string;
    shipping?: { method?: string; cost: number };
  };
  user: {
    firstName?: string;
    lastName?: string;
    telephone?: string;
    address: {
      line1: string;
      line2?: string;
      postcode: string;
      city?: string;
      state?: string;
      company?: string;
      countryIso2: string;
    };
  };
}
