/**
 * Operator commands for production that gave up (`npm run cli -- order retry <lineId>`, `project
 * rebuild <projectId>`), once the cause is gone (space freed, the store back). They act for any
 * client, and reach the flows as an API process does: through the workflow engine's client.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { createWorkflowEngine } from '../engine/create-engine';
import { FLOWS } from '../../workflows';
import { retryOrderLine } from '../services/orders/order-line-failure';
import { rebuildProject } from '../services/notifications/project-build-failure';

export const PRODUCTION_USAGE = `  npm run cli -- order retry <orderLineId> [--json]
  npm run cli -- project rebuild <projectId> [--json]`;

export interface ProductionCommandInput {
  em: EntityManager;
  config: Config;
  databaseUrl: string;
  log: Logger;
  values: { json: boolean };
  rest: string[];
  usage(message: string): never;
}

/** Runs `command` if it is one of these; false when it is not. */
export async function runProductionCommand(command: string, input: ProductionCommandInput): Promise<boolean> {
  if (command !== 'order retry' && command !== 'project rebuild') return false;
  const id = input.rest[0];
  if (!id) return input.usage(`${command} needs the ${command === 'order retry' ? 'order line' : 'project'} id`);
  // An enqueuing client of the engine, as an API process has (ROLE=api): the workers run the flows.
  const engine = await createWorkflowEngine({
    config: { ...input.config, role: 'api' },
    databaseUrl: input.databaseUrl,
    flows: FLOWS,
    activities: {},
    log: input.log,
  });
  try {
    if (command === 'order retry') {
      const { status } = await retryOrderLine(input.em, engine, id);
      console.log(
        input.values.json
          ? JSON.stringify({ orderLineId: id, status })
          : `order line ${id} is ${status} again; its fulfilment renders what is missing and goes on`,
      );
    } else {
      const { status, workflowId } = await rebuildProject(input.em, engine, id);
      console.log(
        input.values.json
          ? JSON.stringify({ projectId: id, status, workflowId })
          : `project ${id} is ${status} again (run ${workflowId})`,
      );
    }
  } finally {
    await engine.stop();
  }
  return true;
}
