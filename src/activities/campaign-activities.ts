import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import type { FileStore } from '../storage/file-store';
import type { SafeFetch } from '../outbound/safe-fetch';
import type { CampaignStatus } from '../domain/campaign-status';
import { failCampaign, importCampaignCsv } from '../services/campaigns/campaign-import';
import { finishCampaignGeneration, generateCampaignPage, recordRowNotification } from '../services/campaigns/campaign-rows';
import { notifyProjectReady } from '../services/notifications/project-ready';
import { attemptDelivery, finishDelivery, type AttemptResult } from '../services/webhooks/webhook-delivery';

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

/** The steps of campaigns and webhook deliveries: thin calls into the services, each idempotent. */
export function createCampaignActivities({ orm, files, fetch, log, config, pepper, engine }: CampaignActivityDeps) {
  const projectDeps = { config, engine, files, log };
  return {
    async importCampaignCsv(campaignId: string): Promise<{ status: CampaignStatus }> {
      return importCampaignCsv(orm.em.fork(), fetch, campaignId);
    },

    async failCampaign(campaignId: string, reason: string): Promise<void> {
      await failCampaign(orm.em.fork(), campaignId, reason);
    },

    async generateCampaignPage(campaignId: string, afterLine: number): Promise<{ rows: number; lastLine: number }> {
      return generateCampaignPage(orm.em.fork(), projectDeps, campaignId, afterLine);
    },

    async finishCampaignGeneration(campaignId: string): Promise<void> {
      await finishCampaignGeneration(orm.em.fork(), campaignId);
    },

    /** The end of every project build: tell the campaign's webhook or the project's callback. */
    async notifyProjectReady(projectId: string): Promise<void> {
      await notifyProjectReady(orm.em.fork(), { engine, config }, projectId);
    },

    async attemptWebhook(deliveryId: string): Promise<AttemptResult> {
      const result = await attemptDelivery(orm.em.fork(), fetch, pepper, deliveryId);
      if (!result.delivered) log.info({ deliveryId, statusCode: result.statusCode, error: result.error }, 'webhook attempt failed');
      return result;
    },

    async finishWebhook(deliveryId: string, outcome: 'delivered' | 'failed'): Promise<void> {
      const delivery = await finishDelivery(orm.em.fork(), deliveryId, outcome);
      if (delivery) await recordRowNotification(orm.em.fork(), delivery);
      log.info({ deliveryId, status: delivery?.status }, 'webhook delivery settled');
    },
  };
}

export type CampaignActivities = ReturnType<typeof createCampaignActivities>;
