import type { OrderLine } from '../../db/entities';
import { isClaimable } from '../../domain/order-claim';
import { isFinalOrderStatus } from '../../domain/order-status';

/** What deciding a claim needs besides the lines: the window, the time, and the lines already remade. */
export interface ClaimContext {
  /** How long after delivery (or shipping, for a parcel never delivered) a line may be claimed: CLAIM_WINDOW. */
  windowMs: number;
  now: Date;
  /** Project id -> the orderId of the remake a claim already made for that line of this order. */
  remade: ReadonlyMap<string, string>;
}

type ClaimLine = Pick<OrderLine, 'status' | 'deliveredAt' | 'shippedAt' | 'statusChangedAt'> & {
  project: { id: string };
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the line's claim window closes: the window after delivery or, for a parcel never reported
 * delivered (lost on its way: `delivering`, `undelivered`, `expired`), after it shipped.
 */
function claimUntil(line: ClaimLine, windowMs: number): Date {
  const from = line.deliveredAt ?? line.shippedAt ?? line.statusChangedAt;
  return new Date(from.getTime() + windowMs);
}

/** Why this line cannot be claimed now, or null when it can. */
function claimBlocker(line: ClaimLine, claim: ClaimContext): string | null {
  const { status } = line;
  const id = line.project.id;
  const where = `project ${id} is "${status}"`;
  const remake = claim.remade.get(id);
  if (remake) return `project ${id} was claimed already: its remake is order ${remake} (claim the remake instead)`;
  if (!isClaimable(status)) {
    if (isFinalOrderStatus(status)) return `${where}: a line that is ${status} cannot be claimed`;
    return `${where}: it has not been shipped; a claim can be made from "delivering" on`;
  }
  const until = claimUntil(line, claim.windowMs);
  if (claim.now.getTime() > until.getTime()) {
    const days = Number((claim.windowMs / DAY_MS).toFixed(2));
    const after = line.deliveredAt ? 'delivery' : 'shipping';
    return `${where}: the claim window closed at ${until.toISOString()} (${days} days after ${after})`;
  }
  return null;
}

/**
 * A claim of these lines: the first reason one of them cannot be claimed, or, when all can, until
 * when (the earliest of their windows).
 */
export function claimOf(lines: ClaimLine[], claim: ClaimContext): { reason: string } | { until: Date } {
  if (lines.length === 0) return { reason: 'the order has no line' };
  for (const line of lines) {
    const reason = claimBlocker(line, claim);
    if (reason) return { reason };
  }
  const until = Math.min(...lines.map((l) => claimUntil(l, claim.windowMs).getTime()));
  return { until: new Date(until) };
}
