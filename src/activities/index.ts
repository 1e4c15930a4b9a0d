import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import { createProjectActivities } from './project-activities';
import { createRetentionActivities } from './retention-activities';
import { createFulfilmentActivities } from './fulfilment-activities';
import type { PrinterRegistry } from '../printers/printer-registry';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import { createCampaignActivities } from './campaign-activities';
import { createResourceActivities } from './resource-activities';
import { limitImageProcessing } from '../imaging/image-processing-limits';
import { withResourceFaultsClassified } from '../storage/resource-faults';

export interface ActivityDeps {
  orm: MikroORM;
  files: FileStore;
  fetch: SafeFetch;
  log: Logger;
  printers: PrinterRegistry;
  config: Config;
  /** Opens the sealed webhook signing secrets. */
  pepper: string;
  /** Campaign and notification steps start flows of their own. */
  engine: WorkflowEngine;
}

/**
 * Every activity by name, for the Temporal worker and the embedded runner alike. Their errors are
 * classified once here: a full or unavailable store reaches the flows as ResourceUnavailableError.
 */
export function createActivities(deps: ActivityDeps) {
  limitImageProcessing();
  return withResourceFaultsClassified({
    ...createProjectActivities(deps),
    ...createRetentionActivities(deps),
    ...createFulfilmentActivities(deps),
    ...createCampaignActivities(deps),
    ...createResourceActivities(deps),
  });
}
