/**
 * Campaign vocabulary: the states of a campaign and of each CSV row, and which moves are allowed.
 * Data, not code: services refuse a move that is not in a table, docs/api.md prints them.
 */

export const CAMPAIGN_STATUSES = ['importing', 'generating', 'notifying', 'completed', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * importing: the CSV is being downloaded and its rows stored; generating: projects are being
 * made row by row; notifying: every row has its project, deliveries are still under way.
 * A campaign fails only when its file is unusable (not CSV, a required column missing).
 */
const CAMPAIGN_TRANSITIONS: Record<CampaignStatus, readonly CampaignStatus[]> = {
  importing: ['generating', 'failed'],
  generating: ['notifying', 'completed'],
  notifying: ['completed'],
  completed: [],
  failed: [],
};

export const CAMPAIGN_ROW_STATES = ['pending', 'invalid', 'duplicate', 'generated', 'notified', 'failed'] as const;
export type CampaignRowState = (typeof CAMPAIGN_ROW_STATES)[number];

/**
 * pending: stored, waiting for its project; invalid: the row was refused (reason says why, never
 * notified); duplicate: its reference already has a project from an earlier row (not notified
 * again); generated: its project exists and is being built; notified: the shop's webhook took the
 * delivery; failed: the project could not be made or the delivery failed after every retry.
 */
const CAMPAIGN_ROW_TRANSITIONS: Record<CampaignRowState, readonly CampaignRowState[]> = {
  pending: ['invalid', 'duplicate', 'generated', 'failed'],
  invalid: [],
  duplicate: [],
  generated: ['notified', 'failed'],
  notified: [],
  // A replayed delivery that succeeds turns a failed row into a notified one.
  failed: ['notified'],
};

export function canMoveCampaign(from: CampaignStatus, to: CampaignStatus): boolean {
  return CAMPAIGN_TRANSITIONS[from].includes(to);
}

export function canMoveCampaignRow(from: CampaignRowState, to: CampaignRowState): boolean {
  return CAMPAIGN_ROW_TRANSITIONS[from].includes(to);
}

/** The CSV columns every file must have; `email` or `userId` must be one of them too. */
export const CAMPAIGN_REQUIRED_COLUMNS = ['reference', 'sku', 'psp', 'marketId'] as const;
export const CAMPAIGN_IDENTITY_COLUMNS = ['email', 'userId'] as const;
/** `custom.<assetId>` columns fill template assets, like `custom` of generate. */
export const CAMPAIGN_CUSTOM_PREFIX = 'custom.';
/** Separates the photo URLs of the `photos` column. */
export const CAMPAIGN_PHOTO_SEPARATOR = '|';
