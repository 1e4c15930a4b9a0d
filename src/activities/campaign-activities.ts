import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import type { CampaignStatus } from '../domain/campaign-status';
import { failCampaign, importCampaignCsv } from '../services/campaigns/campaign-import';
import {
  failRowOfProject,
  finishCampaignGeneration,
  generateCampaignPage,
  settleDelivery,
} from '../services/campaigns/campaign-rows';
import { EditorLinks } from '../services/projects/editor-links';
import { isProjectReadyAwaited, notifyProjectReady } from '../services/notifications/project-ready';
import { attemptDelivery, type AttemptResult } from '../services/webhooks/webhook-delivery';
import { emForCampaign, emForDelivery, emForProject } from './tenant-scope';
import { recordFlowFailure } from '../metrics/work-metrics';
import { CAMPAIGN_FLOW, WEBHOOK_DELIVERY_FLOW } from '../domain/flows';

export interface CampaignActivityDeps {
  orm: MikroORM;
  files: FileStore;
  fetch: SafeFetch;
  log: Logger;
  config: Config;
  /** Opens the sealed webhook signing secrets. */
  pepper: string;
  engine: WorkflowEngine;
}

/**
 * The steps of campaigns and webhook deliveries: thin calls into the services, each idempotent.
 * Each works as the tenant of the row it is given (tenant-scope.ts); a row that is gone is a no-op.
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

    /** The end of every project build: tell the campaign's webhook or the project's callback. */
    async notifyProjectReady(projectId: string): Promise<void> {
      if (!(await isProjectReadyAwaited(orm.em.getConnection(), projectId))) return;
      const em = await emForProject(orm, projectId);
      if (em) await notifyProjectReady(em, { engine, config, editorLinks }, projectId);
    },

    /** A project build ended without an editable book: its campaign row fails with the reason. */
    async reportProjectNotReady(projectId: string, reason: string): Promise<void> {
      const em = await emForProject(orm, projectId);
      if (em) await failRowOfProject(em, projectId, reason);
    },

    async attemptWebhook(deliveryId: string): Promise<AttemptResult> {
      const em = await emForDelivery(orm, deliveryId);
      if (!em) return { delivered: false, statusCode: null, error: 'no such delivery' };
      const result = await attemptDelivery(em, fetch, pepper, deliveryId);
      if (!result.delivered && !result.waiting)
        log.info({ deliveryId, statusCode: result.statusCode, error: result.error }, 'webhook attempt failed');
      return result;
    },

    async finishWebhook(deliveryId: string, outcome: 'delivered' | 'failed'): Promise<void> {
      const em = await emForDelivery(orm, deliveryId);
      const delivery = em ? await settleDelivery(em.fork(), deliveryId, outcome) : null;
      if (outcome === 'failed' && delivery?.status === 'failed')
        recordFlowFailure(WEBHOOK_DELIVERY_FLOW.name, 'gave_up');
      log.info({ deliveryId, status: delivery?.status }, 'webhook delivery settled');
    },
  };
}

export type CampaignActivities = ReturnType<typeof createCampaignActivities>;
