import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderLine } from '../../db/entities';
import { recordStatusChange, type StatusEventMessage } from '../../events/status-event-log';
import { ORDER_SUBJECT, orderLineSubjectId } from '../../domain/status-subjects';

/**
 * Records an order line's current fulfilment status (with its tracking URL) as a status event, in
 * the caller's transaction; dashboards subscribe to these.
 */
export function recordOrderLineStatus(em: EntityManager, line: OrderLine): Promise<StatusEventMessage> {
  const { order } = line;
  return recordStatusChange(
    em,
    { clientId: order.client.id, env: order.env },
    {
      subjectType: ORDER_SUBJECT,
      subjectId: orderLineSubjectId(order.orderId, line.project.id),
      status: line.status,
      detail: { orderId: order.orderId, projectId: line.project.id, ...(line.trackingUrl ? { tracking: line.trackingUrl } : {}) },
    },
  );
}
