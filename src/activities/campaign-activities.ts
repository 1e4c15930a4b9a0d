import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import type { CampaignStatus } from '../domain/campaign-status';
import { failCampaign, importCampaignCsv } from '../services/campaigns/campaign-import';
import { finishCampaignGeneration, generateCampaignPage } from '../services/campaigns/campaign-rows';
import { EditorLinks } from '../services/projects/editor-links';
import { emForCampaign } from '../services/tenancy/row-tenant-scope';
import { recordFlowFailure } from '../metrics/work-metrics';
import { CAMPAIGN_FLOW } from '../domain/flows';

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

/**
 * The steps of a campaign (workflows/campaign.ts): thin calls into the campaigns service, each idempotent.
 * Each works as the tenant of the campaign (services/tenancy/row-tenant-scope.ts); a campaign that is gone is a no-op.
 */
export function createCampaignActivities({ orm, files, fetch, log, config, pepper, engine }: CampaignActivityDeps) {
  const editorLinks = new EditorLinks(config.frontendUrl, pepper);
  const projectDeps = { config, engine, files, log, editorLinks };
  return {
    async importCampaignCsv(campaignId: string): Promise<{ status: CampaignStatus }> {
      const em = await emForCampaign(orm, campaignId);
      return em
        ? importCampaignCsv(em, fetch, campaignId, { maxRows: config.limits.campaignMaxRows })
        : { status: 'failed' };
    },

    async failCampaign(campaignId: string, reason: string): Promise<void> {
      const em = await emForCampaign(orm, campaignId);
      if (em) await failCampaign(em, campaignId, reason);
      recordFlowFailure(CAMPAIGN_FLOW.name, 'gave_up');
    },

    async generateCampaignPage(campaignId: string, afterLine: number): Promise<{ rows: number; lastLine: number }> {
      const em = await emForCampaign(orm, campaignId);
      return em ? generateCampaignPage(em, projectDeps, campaignId, afterLine) : { rows: 0, lastLine: afterLine };
    },

    async finishCampaignGeneration(campaignId: string): Promise<void> {
      const em = await emForCampaign(orm, campaignId);
      if (em) await finishCampaignGeneration(em, campaignId);
    },
  };
}

export type CampaignActivities = ReturnType<typeof createCampaignActivities>;
