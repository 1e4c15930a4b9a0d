import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign, CampaignRow } from '../../db/entities';
import { recordStatusChange } from '../../events/status-event-log';
import { canMoveCampaign, type CampaignStatus } from '../../domain/campaign-status';
import { CAMPAIGN_SUBJECT } from '../../domain/status-subjects';

/** How often at most a running campaign reports its counts; status changes always report. */
const PROGRESS_INTERVAL_MS = 500;

/**
 * rows: data rows in the file; generated: rows whose project exists; notified: rows whose shop
 * took the delivery; failed: rows refused (invalid) plus rows whose project or delivery failed;
 * invalid and duplicate break that down.
 */
export interface CampaignCounts {
  rows: number;
  generated: number;
  notified: number;
  failed: number;
  invalid: number;
  duplicate: number;
}

export async function campaignCounts(em: EntityManager, campaign: Campaign): Promise<CampaignCounts> {
  const [counts] = await em.getConnection().execute<Record<keyof CampaignCounts, string>[]>(
    `SELECT count(*) FILTER (WHERE project_id IS NOT NULL AND state IN ('generated', 'notified', 'failed')) AS generated,
            count(*) FILTER (WHERE state = 'notified') AS notified,
            count(*) FILTER (WHERE state IN ('invalid', 'failed')) AS failed,
            count(*) FILTER (WHERE state = 'invalid') AS invalid,
            count(*) FILTER (WHERE state = 'duplicate') AS duplicate
       FROM campaign_rows WHERE campaign_id = ?`,
    [campaign.id],
    'all',
    em.isInTransaction() ? em.getTransactionContext() : undefined,
  );
  return {
    rows: campaign.rowCount,
    generated: Number(counts.generated),
    notified: Number(counts.notified),
    failed: Number(counts.failed),
    invalid: Number(counts.invalid),
    duplicate: Number(counts.duplicate),
  };
}

/**
 * The campaign, locked for the rest of the caller's transaction: its moves, row outcomes and
 * counts serialise. An advisory lock, not FOR UPDATE: the rows' and deliveries' foreign-key
 * checks take KEY SHARE on the campaign row, which FOR UPDATE would block (and deadlock with).
 * Every transaction that changes rows and reports progress takes it first.
 */
export async function lockCampaign(tx: EntityManager, campaignId: string): Promise<Campaign | null> {
  await tx
    .getConnection()
    .execute(
      'SELECT pg_advisory_xact_lock(hashtext(?))',
      [`campaign-lock:${campaignId}`],
      'run',
      tx.getTransactionContext(),
    );
  return tx.findOne(Campaign, { id: campaignId }, { populate: ['client'], refresh: true });
}

/**
 * Publishes the campaign's status and counts as a status event (subscribers of campaignProgress).
 * Unless `force`d, at most one per PROGRESS_INTERVAL_MS: a 10,000-row campaign must not write
 * 20,000 events. Must run inside a transaction.
 */
export async function recordCampaignProgress(
  tx: EntityManager,
  campaign: Campaign,
  options: { force?: boolean } = {},
): Promise<void> {
  if (!options.force) {
    const [last] = await tx
      .getConnection()
      .execute<{ occurred_at: Date }[]>(
        'SELECT occurred_at FROM status_events WHERE subject_type = ? AND subject_id = ? ORDER BY sequence DESC LIMIT 1',
        [CAMPAIGN_SUBJECT, campaign.id],
        'all',
        tx.getTransactionContext(),
      );
    if (last && Date.now() - new Date(last.occurred_at).getTime() < PROGRESS_INTERVAL_MS) return;
  }
  const counts = await campaignCounts(tx, campaign);
  await recordStatusChange(
    tx,
    { clientId: campaign.client.id, env: campaign.env },
    {
      subjectType: CAMPAIGN_SUBJECT,
      subjectId: campaign.id,
      status: campaign.status,
      detail: { ...counts, ...(campaign.reason ? { reason: campaign.reason } : {}) },
    },
  );
}

/** Moves a locked campaign along its table (a move not in the table is ignored) and reports it. */
export async function moveCampaign(
  tx: EntityManager,
  campaign: Campaign,
  to: CampaignStatus,
  changes: Partial<Campaign> = {},
): Promise<void> {
  if (!canMoveCampaign(campaign.status, to)) return;
  const now = new Date();
  tx.assign(campaign, {
    ...changes,
    status: to,
    updatedAt: now,
    ...(to === 'completed' || to === 'failed' ? { finishedAt: now } : {}),
  });
  await tx.flush();
  await recordCampaignProgress(tx, campaign, { force: true });
}

/** A campaign whose rows are all generated completes when no row still waits for its delivery. */
export async function completeIfDone(tx: EntityManager, campaign: Campaign): Promise<void> {
  if (campaign.status !== 'notifying') return;
  const open = await tx.count(CampaignRow, { campaign, state: { $in: ['pending', 'generated'] } });
  if (open === 0) await moveCampaign(tx, campaign, 'completed');
}
