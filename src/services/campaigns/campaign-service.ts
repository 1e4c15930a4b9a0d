import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign, CampaignRow, WebhookDelivery } from '../../db/entities';
import type { Config } from '../../config';
import type { WorkflowEngine } from '../../domain/flows';
import { CAMPAIGN_FLOW } from '../../domain/flows';
import { CAMPAIGN_ROW_STATES, type CampaignRowState } from '../../domain/campaign-status';
import { CAMPAIGN_ID_PREFIX, isCampaignId } from '../../domain/ids';
import { CAMPAIGN_SUBJECT } from '../../domain/status-subjects';
import type { RequestContext } from '../context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { findOwnedOrThrow } from '../tenancy/owned';
import { isHttpUrl } from '../projects/photo-input';
import { randomBase62 } from '../projects/project-ids';
import { assertIssuedCursor } from '../cursors';
import { findWebhook } from '../webhooks/webhook-endpoints';
import { campaignCounts, recordCampaignProgress, type CampaignCounts } from './campaign-progress';

/** The service hands the transports campaign entities; they name the type through here, never src/db. */
export type { Campaign };

export interface CampaignServiceDeps {
  engine: WorkflowEngine;
  config: Pick<Config, 'durations'>;
}

export interface CampaignProgressReport {
  campaignId: string;
  status: string;
  reason: string | null;
  counts: CampaignCounts;
  sequence: number;
  occurredAt: Date;
}

const MAX_PAGE = 100;

/** Campaigns as both transports offer them; every lookup is the caller's client and environment. */
export class CampaignService {
  constructor(private readonly deps: CampaignServiceDeps) {}

  /** docs/api.md, Campaign: accepts the CSV URL at once; the campaign flow downloads and works through it. */
  async start(ctx: RequestContext, input: { csvUrl: unknown }): Promise<{ message: string; campaign: Campaign }> {
    const { csvUrl } = input;
    if (typeof csvUrl !== 'string' || !isHttpUrl(csvUrl) || csvUrl.length > 2000) {
      throw ValidationError.field('csvUrl', 'must be an absolute http(s) URL of at most 2000 characters');
    }
    if (!(await findWebhook(ctx.em, ctx.tenant))) {
      throw new ConflictError(
        'WEBHOOK_NOT_CONFIGURED',
        `no webhook is set for the ${ctx.tenant.env} environment: a campaign tells the shop of every project through it (setWebhook, or npm run cli -- webhook set)`,
      );
    }
    const campaign = await ctx.em.transactional(async (tx) => {
      const created = tx.create(Campaign, {
        id: `${CAMPAIGN_ID_PREFIX}${randomBase62(20)}`,
        client: ctx.tenant.clientId,
        env: ctx.tenant.env,
        csvUrl,
      });
      await tx.flush();
      await recordCampaignProgress(tx, created, { force: true });
      return created;
    });
    await this.deps.engine.start(CAMPAIGN_FLOW, { campaignId: campaign.id }, { tenant: ctx.tenant });
    return { message: `Automated generation is processing for ${csvUrl}: campaign ${campaign.id}`, campaign };
  }

  async find(ctx: RequestContext, id: string): Promise<Campaign> {
    if (!isCampaignId(id)) throw new NotFoundError('campaign', id, 'id');
    return findOwnedOrThrow(ctx, Campaign, id, { what: 'campaign', path: 'id' });
  }

  counts(em: EntityManager, campaign: Campaign): Promise<CampaignCounts> {
    return campaignCounts(em, campaign);
  }

  /** The campaign's state now, numbered like its last progress event (subscriptions start here). */
  async progress(ctx: RequestContext, id: string): Promise<CampaignProgressReport> {
    const campaign = await this.find(ctx, id);
    const [last] = await ctx.db.execute<{ sequence: number }[]>(
      'SELECT max(sequence) AS sequence FROM status_events WHERE subject_type = ? AND subject_id = ?',
      [CAMPAIGN_SUBJECT, campaign.id],
    );
    return {
      campaignId: campaign.id,
      status: campaign.status,
      reason: campaign.reason ?? null,
      counts: await campaignCounts(ctx.em, campaign),
      sequence: Number(last?.sequence ?? 0),
      occurredAt: campaign.updatedAt,
    };
  }

  /** Newest first. */
  async page(ctx: RequestContext, options: { first: number; after?: string }) {
    checkPage(options);
    return ctx.em.findByCursor(
      Campaign,
      { client: ctx.tenant.clientId, env: ctx.tenant.env },
      { first: options.first, after: options.after, orderBy: { createdAt: 'desc', id: 'desc' }, includeCount: false },
    );
  }

  /** In file order; `state` narrows to rows in that state. */
  async rows(ctx: RequestContext, campaign: Campaign, options: { first: number; after?: string; state?: string }) {
    checkPage(options);
    if (options.state !== undefined && !(CAMPAIGN_ROW_STATES as readonly string[]).includes(options.state)) {
      throw ValidationError.field('state', `must be one of ${CAMPAIGN_ROW_STATES.join(', ')}`);
    }
    return ctx.em.findByCursor(
      CampaignRow,
      { campaign, ...(options.state ? { state: options.state as CampaignRowState } : {}) },
      { first: options.first, after: options.after, orderBy: { line: 'asc', id: 'asc' }, includeCount: false },
    );
  }

  /** Oldest first, each with its attempts. */
  async deliveries(ctx: RequestContext, campaign: Campaign, options: { first: number; after?: string }) {
    checkPage(options);
    return ctx.em.findByCursor(
      WebhookDelivery,
      { campaign },
      {
        first: options.first,
        after: options.after,
        orderBy: { createdAt: 'asc', id: 'asc' },
        populate: ['attempts'],
        includeCount: false,
      },
    );
  }
}

function checkPage(options: { first: number; after?: string }): void {
  if (!Number.isInteger(options.first) || options.first < 1 || options.first > MAX_PAGE)
    throw ValidationError.field('first', `must be from 1 to ${MAX_PAGE}`);
  if (options.after !== undefined) assertIssuedCursor(options.after, 'after');
}
