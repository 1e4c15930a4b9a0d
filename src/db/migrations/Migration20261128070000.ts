import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks that outlast a receiver's bad day (docs/api.md, Retries, disabling and secret rotation):
 * an endpoint keeps its replaced secret until an overlap ends, remembers since when its event
 * deliveries fail and when it was disabled for it; a delivery says when it is next attempted, so
 * a later event of the same order waits that long instead of asking every second.
 */
export class Migration20261128070000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "webhook_endpoints"
         add column "previous_sealed_secret" text null,
         add column "previous_secret_expires_at" timestamptz null,
         add column "failing_since" timestamptz null,
         add column "disabled_at" timestamptz null,
         add column "disabled_reason" varchar(500) null;`,
    );
    this.addSql(`alter table "webhook_deliveries" add column "next_attempt_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop column "next_attempt_at";`);
    this.addSql(
      `alter table "webhook_endpoints"
         drop column "previous_sealed_secret",
         drop column "previous_secret_expires_at",
         drop column "failing_since",
         drop column "disabled_at",
         drop column "disabled_reason";`,
    );
  }
}
