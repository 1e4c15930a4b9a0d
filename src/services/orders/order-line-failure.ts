import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderLine } from '../../db/entities';
import { ACROSS_TENANTS, scopeToOwnerOf } from '../../db/tenant-filter';
import { ConflictError, NotFoundError } from '../../domain/errors';
import {
  fulfilmentWorkflowId,
  STATUS_UPDATE_SIGNAL,
  WorkflowNotFoundError,
  type WorkflowEngine,
} from '../../domain/flows';
import { isFinalOrderStatus, type OrderStatus } from '../../domain/order-status';
import { moveOrderLine } from './order-line-status';

/** The engine as an operator command drives it: signals, and whether a run is still under way. */
export interface FlowControl extends Pick<WorkflowEngine, 'signal' | 'start'> {
  waitForCompletion(workflowId: string, timeoutMs: number): Promise<{ status: string }>;
}

async function isWaiting(engine: FlowControl, workflowId: string): Promise<boolean> {
  try {
    return (await engine.waitForCompletion(workflowId, 0)).status === 'running';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** The longest reason a line keeps (the column's size). */
const MAX_REASON = 500;

/**
 * Production gave up on an order line (its render, assembly or submission failed for good, or its
 * flow was parked): the line moves to `failed processing` with `reason`, its status event and the
 * shop's `order.line.status_changed` event carrying `failureReason`, all in one transaction. A line
 * that has already moved past where the table allows it (cancelled, refunded) stays as it is.
 */
export async function failOrderLine(
  em: EntityManager,
  lineId: string,
  reason: string,
): Promise<{ moved: boolean; status: OrderStatus; final: boolean }> {
  const text = reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
  const result = await moveOrderLine(em, lineId, { status: 'failed processing', failureReason: text });
  return { moved: result.moved, status: result.status, final: isFinalOrderStatus(result.status) };
}

/**
 * An operator retries a line production gave up on, once the cause is gone (`npm run cli -- order
 * retry <lineId>`): `failed processing` → `processing`, and its parked fulfilment run is told, which
 * renders what is missing and goes on to the printer. Only a line failed by production (with a
 * reason) whose run is still waiting; a failure the printer reported is the printer's to resolve.
 */
export async function retryOrderLine(
  em: EntityManager,
  engine: FlowControl,
  lineId: string,
): Promise<{ status: OrderStatus }> {
  const line = await em.fork().findOne(OrderLine, { id: lineId }, { populate: ['order'], ...ACROSS_TENANTS });
  if (!line) throw new NotFoundError('order line', lineId);
  if (line.status !== 'failed processing' || !line.failureReason) {
    throw new ConflictError(
      'ORDER_STATUS_CONFLICT',
      `order line ${lineId} is "${line.status}"${line.status === 'failed processing' ? ' as the printer reported it' : ''}: only a line production gave up on can be retried`,
    );
  }
  if (!(await isWaiting(engine, fulfilmentWorkflowId(lineId)))) {
    throw new ConflictError(
      'ORDER_STATUS_CONFLICT',
      `the fulfilment run of order line ${lineId} is not waiting for a retry (see \`npm run cli -- flow\`)`,
    );
  }
  const scoped = em.fork();
  scopeToOwnerOf(scoped, line.order);
  const moved = await moveOrderLine(scoped, lineId, { status: 'processing' });
  await engine.signal(STATUS_UPDATE_SIGNAL, fulfilmentWorkflowId(lineId), { status: 'processing' });
  return { status: moved.status };
}
