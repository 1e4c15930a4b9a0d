import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderLine } from '../../db/entities';
import type { Environment } from '../../domain/environment';
import { printRoutingOf } from './print-settings';

/**
 * The end of the hold window of an order paid now: payment plus the shop's `holdWindowSeconds`
 * (docs/api.md, Hold window), or null when the shop holds nothing. Read at payment, so a later change
 * of the setting leaves orders already paid as they were.
 */
export async function holdUntilFor(
  em: EntityManager,
  shop: { clientId: string; env: Environment },
  paidAt: Date,
): Promise<Date | null> {
  const { holdWindowSeconds } = await printRoutingOf(em, shop);
  return holdWindowSeconds > 0 ? new Date(paidAt.getTime() + holdWindowSeconds * 1000) : null;
}

/** When the line's order may go to the printer (ms since the epoch), or null: at once. */
export async function holdUntilOf(em: EntityManager, lineId: string): Promise<number | null> {
  const line = await em.findOneOrFail(OrderLine, { id: lineId }, { populate: ['order'] });
  return line.order.holdUntil?.getTime() ?? null;
}
