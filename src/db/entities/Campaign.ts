import { Entity, Enum, Index, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../../domain/campaign-status';
import { TenantOwned } from './TenantOwned';

/** One CSV import: a project per good row, and the shop told when each is ready. */
@Entity({ tableName: 'campaigns' })
@Index({ properties: ['client', 'env', 'createdAt', 'id'] })
export class Campaign extends TenantOwned {
  /** `cmp_` and 20 base62 characters. */
  @PrimaryKey({ type: 'string', length: 30 })
  id!: string;

  @Property({ type: 'string', length: 2000 })
  csvUrl!: string;

  @Enum({ items: () => CAMPAIGN_STATUSES, nativeEnumName: 'campaign_status' })
  status: CampaignStatus & Opt = 'importing';

  /** Why the campaign failed (the file, never a row). */
  @Property({ type: 'text', nullable: true })
  reason?: string | null;

  /** Data rows read from the file (the header not counted). */
  @Property({ type: 'integer' })
  rowCount: number & Opt = 0;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  finishedAt?: Date | null;
}
