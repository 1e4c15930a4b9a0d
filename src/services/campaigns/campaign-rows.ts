import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CampaignRow, Project, type Campaign, type WebhookDelivery } from '../../db/entities';
import type { RequestContext } from '../context';
import { DomainError } from '../../domain/errors';
import { generateProject } from '../projects/generate-project';
import type { GenerateInput } from '../projects/generate-input';
import { PROJECT_BUILD_FLOW } from '../../domain/flows';
import { newProjectId } from '../projects/project-ids';
import type { ProjectServiceDeps } from '../projects/project-service-deps';
import { canMoveCampaignRow } from '../../domain/campaign-status';
import { completeIfDone, lockCampaign, moveCampaign, recordCampaignProgress } from './campaign-progress';

/**
 * The most projects of one campaign building at once: more than a tenant's build slots (4), so a
 * slot that frees finds the next build already queued, and few enough that a 10,000-row file never
 * floods the build queue ahead of the tenant's other work.
 */
const CAMPAIGN_BUILD_WINDOW = 10;
/** Rows of a page generated at the same time (each is a few queries and a flow start). */
const ROW_CONCURRENCY = 4;
/** How long a page waits for room in the window before it generates a row anyway. */
const WINDOW_WAIT_MS = 2 * 60_000;
const WINDOW_POLL_MS = 100;

/**
 * pending -> generated | invalid | duplicate. Claims the row's reference for this client and
 * environment (a unique constraint: one project per reference, whatever runs at the same time),
 * then makes the project with the very same code as /v2/generate. The project id is decided
 * with the claim, so a repeated call finds the project instead of making a second one.
 */
async function generateCampaignRow(em: EntityManager, deps: ProjectServiceDeps, rowId: string): Promise<void> {
  const row = await em.findOne(CampaignRow, { id: rowId }, { populate: ['client', 'input'] });
  if (row?.state !== 'pending' || !row.reference) return;

  if (!row.projectId) {
    const projectId = newProjectId();
    try {
      await em.nativeUpdate(
        CampaignRow,
        { id: row.id, claimedReference: null },
        { claimedReference: row.reference, projectId },
      );
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      const holder = await em.findOneOrFail(
        CampaignRow,
        { client: row.client, env: row.env, claimedReference: row.reference },
        { populate: ['campaign'] },
      );
      await setRow(em, row, 'duplicate', {
        projectId: holder.projectId,
        reason: `reference: "${row.reference}" already has project ${holder.projectId} (campaign ${holder.campaign.id}, line ${holder.line}); not generated or notified again`,
      });
      return;
    }
    await em.refresh(row);
  }

  const ctx: RequestContext = {
    tenant: { clientId: row.client.id, clientName: row.client.name, env: row.env },
    em: em.fork(),
    db: em.getConnection(),
    requestId: `campaign-row-${row.id}`,
  };
  try {
    if (await em.count(Project, { id: row.projectId! })) {
      await deps.engine.start(PROJECT_BUILD_FLOW, { projectId: row.projectId! }, { tenant: ctx.tenant });
    } else {
      await generateProject(ctx, deps, row.input as unknown as GenerateInput, { projectId: row.projectId! });
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Refused by generate's rules: the reference is free again for a corrected row.
    await setRow(em, row, 'invalid', { reason: error.message, claimedReference: null, projectId: null });
    return;
  }
  await markRowGenerated(em, row.projectId!);
}

/** The row of a campaign project has its project (idempotent; the build may finish first). */
export async function markRowGenerated(em: EntityManager, projectId: string): Promise<void> {
  await em.nativeUpdate(
    CampaignRow,
    { projectId, claimedReference: { $ne: null }, state: 'pending' },
    { state: 'generated', updatedAt: new Date() },
  );
}

/** The row that owns `projectId` (its reference's claim), if the project came from a campaign. */
export async function campaignRowOfProject(em: EntityManager, projectId: string): Promise<CampaignRow | null> {
  return em.findOne(CampaignRow, { projectId, claimedReference: { $ne: null } }, { populate: ['campaign'] });
}

async function setRow(
  em: EntityManager,
  row: CampaignRow,
  to: CampaignRow['state'],
  changes: Partial<CampaignRow>,
): Promise<void> {
  if (!canMoveCampaignRow(row.state, to)) return;
  await em.nativeUpdate(
    CampaignRow,
    { id: row.id, state: row.state },
    { ...changes, state: to, updatedAt: new Date() },
  );
}

/**
 * One page of the campaign flow: waits for room in the campaign's window of building projects,
 * then generates that many of the next pending rows after `afterLine`, a few at a time. Pages
 * follow each other as builds finish, so the tenant's build slots never wait for a whole page to
 * finish, and a 10,000-row file never has more than a window of builds in flight. Returns the last
 * line handled (0 rows: the campaign has no pending rows left).
 */
export async function generateCampaignPage(
  em: EntityManager,
  deps: ProjectServiceDeps,
  campaignId: string,
  afterLine: number,
): Promise<{ rows: number; lastLine: number }> {
  const deadline = Date.now() + WINDOW_WAIT_MS;
  let building = await countBuilding(em, campaignId);
  while (building >= CAMPAIGN_BUILD_WINDOW && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_POLL_MS));
    building = await countBuilding(em, campaignId);
  }
  const rows = await em.find(
    CampaignRow,
    { campaign: campaignId, state: 'pending', line: { $gt: afterLine } },
    { orderBy: { line: 'asc' }, limit: Math.max(1, CAMPAIGN_BUILD_WINDOW - building), fields: ['id', 'line'] },
  );
  if (rows.length === 0) return { rows: 0, lastLine: afterLine };
  const queue = [...rows];
  await Promise.all(
    Array.from({ length: Math.min(ROW_CONCURRENCY, queue.length) }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) await generateCampaignRow(em.fork(), deps, row.id);
    }),
  );

  await em.fork().transactional(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    if (campaign) await recordCampaignProgress(tx, campaign, { force: true });
  });
  return { rows: rows.length, lastLine: rows[rows.length - 1].line };
}

/** The campaign's projects still being built: generated rows whose project is not yet a book. */
async function countBuilding(em: EntityManager, campaignId: string): Promise<number> {
  const [{ building }] = await em.getConnection().execute<{ building: string }[]>(
    `select count(*) as building from campaign_rows r join projects p on p.id = r.project_id and p.client_id = r.client_id and p.env = r.env
      where r.campaign_id = ? and r.state = 'generated' and p.status in ('created', 'building')`,
    [campaignId],
  );
  return Number(building);
}

/** generating -> notifying, or straight to completed when every delivery is already settled. */
export async function finishCampaignGeneration(em: EntityManager, campaignId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    if (campaign?.status !== 'generating') return;
    await moveCampaign(tx, campaign, 'notifying');
    await completeIfDone(tx, campaign);
  });
}

/**
 * A campaign project will not become editable (deleted or expired while building, or its build
 * gave up): its row fails with the reason and is never notified, so the campaign can complete.
 * A no-op for a project that is not a campaign's.
 */
export async function failRowOfProject(em: EntityManager, projectId: string, reason: string): Promise<void> {
  await em.transactional(async (tx) => {
    const claim = { projectId, claimedReference: { $ne: null } };
    const owner = await tx.findOne(CampaignRow, claim, { fields: ['campaign'] });
    const campaign = owner && (await lockCampaign(tx, owner.campaign.id));
    const row = campaign && (await tx.findOne(CampaignRow, claim, { refresh: true }));
    if (!campaign || !row) return;
    await setRow(tx, row, 'failed', { reason });
    await settleCampaign(tx, campaign);
  });
}

/**
 * A campaign delivery settled: its row becomes notified or failed, and the campaign may complete.
 * The webhooks area calls it inside the settling transaction (a DeliverySettledListener, registered
 * in src/activities/index.ts); a delivery of no campaign is none of its business.
 */
export async function settleRowOfDelivery(em: EntityManager, delivery: WebhookDelivery): Promise<void> {
  if (!delivery.campaign || delivery.status === 'pending') return;
  await em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, delivery.campaign!.id);
    const row = await tx.findOne(CampaignRow, {
      campaign: delivery.campaign!.id,
      projectId: delivery.projectId,
      claimedReference: { $ne: null },
    });
    if (!campaign || !row) return;
    const to = delivery.status === 'delivered' ? 'notified' : 'failed';
    if (canMoveCampaignRow(row.state, to)) {
      tx.assign(row, {
        state: to,
        reason:
          to === 'failed'
            ? `the webhook delivery ${delivery.id} failed after every attempt; replayWebhook sends it again`
            : null,
        updatedAt: new Date(),
      });
      await tx.flush();
    }
    await settleCampaign(tx, campaign);
  });
}

/** After a row settled: the campaign completes if that was its last open row, else publishes its counts. */
async function settleCampaign(tx: EntityManager, campaign: Campaign): Promise<void> {
  const before = campaign.status;
  await completeIfDone(tx, campaign);
  if (campaign.status === before) await recordCampaignProgress(tx, campaign);
}
