import { Migration } from '@mikro-orm/migrations';

/**
 * Variation attributes get the thumbnail and descriptions that spec 2.3 lists for every attribute
 * object. Rows imported before this have no such data: they get an empty description and a
 * thumbnail path derived from their type (`attributes/<type>.jpg`) until the catalogue is imported again.
 */
export class Migration20261122235500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "product_attributes" add column "thumbnail" varchar(500) null, add column "description" jsonb null, add column "description_json" jsonb null;`,
    );
    this.addSql(
      `update "product_attributes" set "thumbnail" = 'attributes/' || "type" || '.jpg', "description" = '{"en": ""}'::jsonb, "description_json" = '{"en": []}'::jsonb;`,
    );
    this.addSql(
      `alter table "product_attributes" alter column "thumbnail" set not null, alter column "description" set not null, alter column "description_json" set not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "product_attributes" drop column "thumbnail", drop column "description", drop column "description_json";`,
    );
  }
}
