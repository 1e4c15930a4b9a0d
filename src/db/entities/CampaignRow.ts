import { BigIntType, Entity, Enum, Index, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Campaign } from './Campaign';
import { CAMPAIGN_ROW_STATES, type CampaignRowState } from '../../domain/campaign-status';
import { TenantOwned } from './TenantOwned';

/**
 * One data row of a campaign's CSV. `claimedReference` is set only on the row that owns its
 * reference's project: the unique constraint makes "one project per client, environment and
 * reference" hold across campaigns and concurrent runs, without a check-then-insert race.
 */
@Entity({ tableName: 'campaign_rows' })
@Unique({ properties: ['campaign', 'line'] })
@Unique({ name: 'campaign_rows_reference_claim_unique', properties: ['client', 'env', 'claimedReference'] })
@Index({ properties: ['campaign', 'state', 'line'] })
@Index({ properties: ['projectId'] })
export class CampaignRow extends TenantOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => Campaign, { deleteRule: 'cascade' })
  campaign!: Campaign;

  /** Line of the row's first character in the file; the header is line 1. */
  @Property({ type: 'integer' })
  line!: number;

  @Property({ type: 'string', length: 500, nullable: true })
  reference?: string | null;

  @Property({ type: 'string', length: 500, nullable: true })
  claimedReference?: string | null;

  @Enum({ items: () => CAMPAIGN_ROW_STATES, nativeEnumName: 'campaign_row_state' })
  state: CampaignRowState & Opt = 'pending';

  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  /** What the row asks of generate (its fields named as in /v2/generate). */
  @Property({ type: 'json', lazy: true })
  input: Record<string, unknown> & Opt = {};

  /** Decided when the reference is claimed, so a retried generation makes the same project. */
  @Property({ type: 'string', length: 40, nullable: true })
  projectId?: string | null;

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();
}
