import type { OrderStatus } from './order-status';

/**
 * Claims and remakes (docs/api.md, Claims and remakes): after delivery a shop claims a damaged,
 * misprinted or lost book and gets a remake, a new order that prints the original's files again.
 */

/** Why a book is claimed. */
export const CLAIM_REASONS = ['damaged', 'misprint', 'lost', 'other'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];

/**
 * Where a line may be claimed: from `delivering` on (a parcel lost on its way is claimed there),
 * through the delivered and courier-side statuses; never once cancelled, refunded (the money went
 * back instead), its files cleaned or the line deleted.
 */
const CLAIMABLE_STATUSES = [
  'delivering',
  'complete',
  'ready for collection',
  'collected',
  'abnormal',
  'undelivered',
  'expired',
] as const satisfies readonly OrderStatus[];

export function isClaimable(status: OrderStatus): boolean {
  return (CLAIMABLE_STATUSES as readonly OrderStatus[]).includes(status);
}

/** A claim's note, at most this many characters. */
export const MAX_CLAIM_NOTE_LENGTH = 2000;
/** Evidence photos of one claim, at most this many URLs. */
export const MAX_CLAIM_PHOTOS = 10;

/** The claim a remake was made for, as stored on the remake and as events and views carry it. */
export interface OrderClaim {
  reason: ClaimReason;
  note?: string;
  /** URLs of evidence photos, as the shop sent them (stored, never fetched). */
  photos: string[];
  /** The projects claimed: the lines of the remake. */
  projectIds: string[];
  /** ISO 8601: when the claim was made. */
  createdAt: string;
}
