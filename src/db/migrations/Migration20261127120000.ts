import { Migration } from '@mikro-orm/migrations';

/**
 * When each webhook endpoint was created: first `setWebhook` calls that race are told apart from
 * later ones by it (src/services/webhooks/webhook-endpoints.ts). Endpoints made before get the
 * time of the migration, which every later call began after.
 */
export class Migration20261127120000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add column "created_at" timestamptz not null default now();`);
    this.addSql(`alter table "webhook_endpoints" alter column "created_at" drop default;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop column "created_at";`);
  }
}
