import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import { createProjectBuildActivities } from './project-build-activities';
import { createProjectExpungeActivities } from './project-expunge-activities';
import { createPrintFulfilmentActivities } from './print-fulfilment-activities';
import type { PrinterRegistry } from '../printers/printer-registry';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import { createCampaignActivities } from './campaign-activities';
import { createWebhookDeliveryActivities } from './webhook-delivery-activities';
import { settleRowOfDelivery } from '../services/campaigns/campaign-rows';
import { createResourceActivities } from './resource-activities';
import { createUploadedPhotoActivities } from './uploaded-photo-activities';

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
 * Every activity by name, for the Temporal worker and the embedded runner alike: one file per flow,
 * each activity a call into the service that owns the state. Their errors are classified where the
 * process is composed (src/work-parts.ts): a full or unavailable store reaches the flows as
 * ResourceUnavailableError.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProjectBuildActivities(deps),
    ...createProjectExpungeActivities(deps),
    ...createPrintFulfilmentActivities(deps),
    ...createCampaignActivities(deps),
    // A campaign's row follows the delivery that announced its project: the webhooks area tells it.
    ...createWebhookDeliveryActivities({ ...deps, onSettled: [settleRowOfDelivery] }),
    ...createResourceActivities(deps),
    ...createUploadedPhotoActivities(deps),
  };
}
