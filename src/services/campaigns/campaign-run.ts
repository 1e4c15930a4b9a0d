import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import type { CampaignStatus } from '../../domain/campaign-status';
import { CAMPAIGN_FLOW } from '../../domain/flows';
import { recordFlowFailure } from '../../metrics/work-metrics';
import type { SafeFetch } from '../../outbound/safe-fetch';
import type { ProjectServiceDeps } from '../projects/project-service-deps';
import { emForCampaign } from '../tenancy/row-tenant-scope';
import { failCampaign, importCampaignCsv } from './campaign-import';
import { finishCampaignGeneration, generateCampaignPage } from './campaign-rows';

export interface CampaignRunDeps extends ProjectServiceDeps {
  orm: MikroORM;
  fetch: SafeFetch;
  config: Config;
}

/**
 * The campaign flow's work on one campaign: import its file, generate its rows page by page, end
 * the generation, or fail it. Each works as the campaign's tenant (row-tenant-scope.ts) and is
 * idempotent; a campaign that is gone is a no-op (an import of it answers `failed`).
 */
export class CampaignRun {
  constructor(private readonly deps: CampaignRunDeps) {}

  async importCsv(campaignId: string): Promise<{ status: CampaignStatus }> {
    const { orm, fetch, config } = this.deps;
    const em = await emForCampaign(orm, campaignId);
    return em
      ? importCampaignCsv(em, fetch, campaignId, { maxRows: config.limits.campaignMaxRows })
      : { status: 'failed' };
  }

  async fail(campaignId: string, reason: string): Promise<void> {
    const em = await emForCampaign(this.deps.orm, campaignId);
    if (em) await failCampaign(em, campaignId, reason);
    recordFlowFailure(CAMPAIGN_FLOW.name, 'gave_up');
  }

  async generatePage(campaignId: string, afterLine: number): Promise<{ rows: number; lastLine: number }> {
    const { orm, config, engine, files, log, editorLinks } = this.deps;
    const em = await emForCampaign(orm, campaignId);
    const projectDeps = { config, engine, files, log, editorLinks };
    return em ? generateCampaignPage(em, projectDeps, campaignId, afterLine) : { rows: 0, lastLine: afterLine };
  }

  async finishGeneration(campaignId: string): Promise<void> {
    const em = await emForCampaign(this.deps.orm, campaignId);
    if (em) await finishCampaignGeneration(em, campaignId);
  }
}
