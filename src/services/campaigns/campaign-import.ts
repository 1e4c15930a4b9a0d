import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Campaign, CampaignRow } from '../../db/entities';
import { OutboundError, type SafeFetch } from '../../outbound/safe-fetch';
import type { CampaignStatus } from '../../domain/campaign-status';
import { createCampaignCsvReader, CampaignFileError, readCampaignRow } from './campaign-csv';
import { lockCampaign, moveCampaign } from './campaign-progress';

/** Largest CSV accepted: about 200,000 rows of a typical layout. */
const CAMPAIGN_CSV_MAX_BYTES = 50 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
/** Rows written per INSERT: memory stays flat whatever the file's length. */
const INSERT_BATCH = 500;
const MAX_REFERENCE_LENGTH = 500;

/** Download failures worth another try; anything else is the file's or the URL's fault. */
class CampaignDownloadInterrupted extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CampaignDownloadInterrupted';
  }
}

/**
 * importing -> generating | failed. Downloads the CSV through the guarded client and streams it
 * into campaign_rows in batches, each row with its line and, when refused, its reason. A file with
 * more than `maxRows` data rows (CAMPAIGN_MAX_ROWS) fails the campaign as soon as the row past the
 * limit arrives: the download stops there, and the references it keeps to find repeats stay
 * bounded. Safe to repeat: rows are keyed by (campaign, line), and a repeat rebuilds the same rows.
 */
export async function importCampaignCsv(
  em: EntityManager,
  fetch: SafeFetch,
  campaignId: string,
  { maxRows }: { maxRows: number },
): Promise<{ status: CampaignStatus }> {
  const campaign = await em.findOne(Campaign, { id: campaignId }, { populate: ['client'] });
  if (!campaign) return { status: 'failed' };
  if (campaign.status !== 'importing') return { status: campaign.status };

  const firstLineOf = new Map<string, number>();
  let batch: RequiredEntityData<CampaignRow>[] = [];
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await em.createQueryBuilder(CampaignRow).insert(batch).onConflict(['campaign', 'line']).ignore().execute();
    batch = [];
  };
  const reader = createCampaignCsvReader(async ({ line, values }) => {
    rows++;
    if (rows > maxRows) {
      throw new CampaignFileError(
        `the file has more than ${maxRows} rows (line ${line} is row ${rows}); split it into campaigns of at most ${maxRows} rows`,
      );
    }
    const { reference, input, problem } = readCampaignRow(values);
    let reason = problem;
    if (reference && reference.length > MAX_REFERENCE_LENGTH)
      reason = `reference: must be at most ${MAX_REFERENCE_LENGTH} characters`;
    else if (reference && !reason) {
      const first = firstLineOf.get(reference);
      if (first !== undefined) reason = `reference: "${reference}" repeats the reference of line ${first}`;
      else firstLineOf.set(reference, line);
    }
    batch.push({
      campaign: campaign.id,
      client: campaign.client.id,
      env: campaign.env,
      line,
      reference: reference?.slice(0, MAX_REFERENCE_LENGTH) ?? null,
      state: reason ? 'invalid' : 'pending',
      reason,
      input: { ...input },
      updatedAt: new Date(),
    });
    if (batch.length >= INSERT_BATCH) await flush();
  });

  let failure: string | undefined;
  try {
    await fetch(campaign.csvUrl, {
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxBytes: CAMPAIGN_CSV_MAX_BYTES,
      onChunk: (chunk) => reader.write(chunk),
    });
    await reader.end();
    await flush();
  } catch (error) {
    if (error instanceof CampaignFileError) failure = error.message;
    else if (error instanceof OutboundError) {
      const passing =
        error.code === 'TIMEOUT' ||
        error.code === 'UNREACHABLE' ||
        (error.code === 'HTTP_STATUS' && (error.status ?? 0) >= 500);
      if (passing) throw new CampaignDownloadInterrupted(`the CSV could not be downloaded: ${error.message}`);
      failure = `the CSV could not be downloaded: ${error.message}`;
    } else throw error;
  }

  return em.transactional(async (tx) => {
    const locked = (await lockCampaign(tx, campaignId))!;
    if (failure) {
      // A bad file fails the whole campaign: no row of it is worked on.
      await tx.nativeDelete(CampaignRow, { campaign: campaignId });
      await moveCampaign(tx, locked, 'failed', { reason: failure, rowCount: 0 });
    } else {
      await moveCampaign(tx, locked, 'generating', { rowCount: rows });
    }
    return { status: locked.status };
  });
}

/** The flow gave up downloading: the campaign fails with the last reason. */
export async function failCampaign(em: EntityManager, campaignId: string, reason: string): Promise<void> {
  await em.transactional(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    if (campaign) await moveCampaign(tx, campaign, 'failed', { reason });
  });
}
