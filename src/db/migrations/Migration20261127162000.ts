import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook lag is read at every metrics scrape (docs/operations.md, Metrics): the oldest pending
 * delivery per environment. Pending deliveries are a handful among every delivery ever recorded, so
 * a partial index keeps that read to the handful instead of a scan of the table.
 */
export class Migration20261127162000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "webhook_deliveries_pending_index" on "webhook_deliveries" ("env", "updated_at") ` +
        `where "status" = 'pending';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "webhook_deliveries_pending_index";`);
  }
}
