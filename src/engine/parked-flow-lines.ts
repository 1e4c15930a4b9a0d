import type { MikroORM } from '@mikro-orm/postgresql';
import { orderLineOfFulfilment } from '../domain/flows';
import { emForOrderLine } from '../activities/tenant-scope';
import { failParkedFulfilment, reopenParkedFulfilment } from '../services/orders/parked-fulfilment';
import type { ParkedFlow } from './parked-flows';

/**
 * What a parked run means for the shop: a parked fulfilment fails its order line with the reason
 * (src/services/orders/parked-fulfilment.ts). Other flows (builds, webhook deliveries, campaigns)
 * have no failed status of their own to move to here; they are seen in the log, the metric and
 * `flow list --dead`.
 */
export async function failWorkOfParkedFlow(orm: MikroORM, flow: ParkedFlow): Promise<void> {
  const lineId = orderLineOfFulfilment(flow.workflowId);
  if (!lineId) return;
  const em = await emForOrderLine(orm, lineId);
  if (!em) return;
  await failParkedFulfilment(em, lineId, `its fulfilment was stopped after ${Math.max(1, flow.recoveryAttempts - 1)} attempts that each ended with the service process (a crash or memory exhaustion); an operator retries or cancels it`);
}

/** Before a parked run is retried: its order line goes back to where the run left it. */
export async function reopenWorkOfParkedFlow(orm: MikroORM, workflowId: string): Promise<void> {
  const lineId = orderLineOfFulfilment(workflowId);
  if (!lineId) return;
  const em = await emForOrderLine(orm, lineId);
  if (em) await reopenParkedFulfilment(em, lineId);
}
