import type { MikroORM } from '@mikro-orm/postgresql';
import { orderLineOfFulfilment, projectOfBuild } from '../domain/flows';
import { emForOrderLine, emForProject } from '../services/tenancy/row-tenant-scope';
import { failProjectBuild } from '../services/notifications/project-build-failure';
import { failParkedFulfilment, reopenParkedFulfilment } from '../services/orders/parked-fulfilment';
import type { ParkedFlow } from './parked-flows';

/**
 * What a parked run means for the shop: a parked fulfilment fails its order line with the reason
 * (src/services/orders/parked-fulfilment.ts), a parked build fails its project (`failed`, the
 * shop's `project.build_failed`). Other flows (webhook deliveries, campaigns, expunges) have no
 * failed status of their own; they are seen in the log, the metric and `flow list --dead`.
 */
export async function failWorkOfParkedFlow(orm: MikroORM, flow: ParkedFlow): Promise<void> {
  const attempts = Math.max(1, flow.recoveryAttempts - 1);
  const lineId = orderLineOfFulfilment(flow.workflowId);
  if (lineId) {
    const em = await emForOrderLine(orm, lineId);
    if (em)
      await failParkedFulfilment(
        em,
        lineId,
        `its fulfilment was stopped after ${attempts} attempts that each ended with the service process (a crash or memory exhaustion); an operator retries or cancels it`,
      );
    return;
  }
  const projectId = projectOfBuild(flow.workflowId);
  if (projectId) {
    const em = await emForProject(orm, projectId);
    if (em)
      await failProjectBuild(
        em,
        projectId,
        `its build was stopped after ${attempts} attempts that each ended with the service process (a crash or memory exhaustion); an operator rebuilds it`,
      );
  }
}

/** Before a parked run is retried: its order line goes back to where the run left it. */
export async function reopenWorkOfParkedFlow(orm: MikroORM, workflowId: string): Promise<void> {
  const lineId = orderLineOfFulfilment(workflowId);
  if (!lineId) return;
  const em = await emForOrderLine(orm, lineId);
  if (em) await reopenParkedFulfilment(em, lineId);
}
