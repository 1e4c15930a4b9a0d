/** One shipped parcel of an order line, as a printer reports it; any member may be unknown. */
export interface Parcel {
  carrier?: string;
  trackingNumber?: string;
  trackingUrl?: string;
}

export const MAX_PARCELS = 20;
