import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { ActivityFunctions, FlowDefinition } from '../../workflows/flow-context';
import { EmbeddedEngine } from './embedded-engine';
import { TemporalEngine } from './temporal-engine';
import type { ManagedWorkflowEngine } from './workflow-engine';

export interface WorkflowEngineDeps {
  config: Pick<Config, 'temporal'>;
  orm: MikroORM;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  flows: FlowDefinition<any, any, any>[];
  activities: ActivityFunctions;
  log: Logger;
}

/**
 * Temporal when TEMPORAL_ADDRESS is set (flows then execute in `npm run worker`), otherwise the
 * embedded runner in this process; call `resumeUnfinished?.()` once the process is ready.
 */
export async function createWorkflowEngine({ config, orm, flows, activities, log }: WorkflowEngineDeps): Promise<ManagedWorkflowEngine> {
  if (config.temporal) {
    return TemporalEngine.connect({ ...config.temporal, flowNames: flows.map((flow) => flow.name), log });
  }
  return new EmbeddedEngine({ orm, flows, activities, log });
}
