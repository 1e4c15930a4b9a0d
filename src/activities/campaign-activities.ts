import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import type { CampaignStatus } from '../domain/campaign-status';
import { CampaignRun } from '../services/campaigns/campaign-run';
import { EditorLinks } from '../services/projects/editor-links';

export interface CampaignActivityDeps {
  orm: MikroORM;
  files: FileStore;
  fetch: SafeFetch;
  log: Logger;
  config: Config;
  /** Opens the sealed editor-link seeds of the generated projects. */
  pepper: string;
  engine: WorkflowEngine;
}

/** The steps of a campaign (workflows/campaign.ts): the campaigns area's run of one campaign. */
export function createCampaignActivities({ orm, files, fetch, log, config, pepper, engine }: CampaignActivityDeps) {
  const editorLinks = new EditorLinks(config.frontendUrl, pepper);
  const run = new CampaignRun({ orm, fetch, config, engine, files, log, editorLinks });
  return {
    importCampaignCsv: (campaignId: string): Promise<{ status: CampaignStatus }> => run.importCsv(campaignId),
    failCampaign: (campaignId: string, reason: string): Promise<void> => run.fail(campaignId, reason),
    generateCampaignPage: (campaignId: string, afterLine: number): Promise<{ rows: number; lastLine: number }> =>
      run.generatePage(campaignId, afterLine),
    finishCampaignGeneration: (campaignId: string): Promise<void> => run.finishGeneration(campaignId),
  };
}

export type CampaignActivities = ReturnType<typeof createCampaignActivities>;
