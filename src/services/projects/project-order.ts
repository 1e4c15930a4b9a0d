import { OrderLine } from '../../db/entities';
import type { OrderStatus } from '../../domain/order-status';
import type { RequestContext } from '../context';

/** The order a project was printed in, as its customer may see it in the editor: where it is and what it cost. */
export interface ProjectOrder {
  status: OrderStatus;
  orderedAt: Date;
  statusChangedAt: Date;
  /** The line's total (all copies), in the order's currency's major units. */
  total: number;
  currency: string;
  quantity: number;
}

/**
 * The newest order line of a project (a project may be ordered again after a cancel), or null when it
 * was never ordered. The line is read through the tenant filter, so another client's project has none.
 */
export async function projectOrder(ctx: RequestContext, projectId: string): Promise<ProjectOrder | null> {
  const line = await ctx.em.findOne(
    OrderLine,
    { project: projectId },
    { populate: ['order'], orderBy: { order: { createdAt: 'desc' } } },
  );
  if (!line) return null;
  return {
    status: line.status,
    orderedAt: line.order.createdAt,
    statusChangedAt: line.statusChangedAt,
    total: Number(line.lineItemTotal),
    currency: line.order.currency,
    quantity: line.quantity,
  };
}
