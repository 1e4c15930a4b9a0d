import { Migration } from '@mikro-orm/migrations';

/**
 * Photos uploaded from a device (docs/api.md, Uploads): a photo row is made when its upload is
 * created and is `uploading` until its last byte; `upload_expires_at` is set while the upload is
 * open (the expiry pass finds abandoned ones by it), `sha256` once its bytes are in, unique per
 * project so that the same bytes uploaded twice are one photo.
 */
export class Migration20261128080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "photos" add column "uploaded" boolean not null default false;`);
    this.addSql(`alter table "photos" add column "sha256" varchar(64) null;`);
    this.addSql(`alter table "photos" add column "upload_expires_at" timestamptz null;`);
    this.addSql(
      `create unique index "photos_project_id_sha256_unique" on "photos" ("project_id", "sha256") ` +
        `where "sha256" is not null;`,
    );
    this.addSql(
      `create index "photos_open_uploads_index" on "photos" ("upload_expires_at") where "upload_expires_at" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "photos_open_uploads_index";`);
    this.addSql(`drop index if exists "photos_project_id_sha256_unique";`);
    this.addSql(`alter table "photos" drop column "upload_expires_at";`);
    this.addSql(`alter table "photos" drop column "sha256";`);
    this.addSql(`alter table "photos" drop column "uploaded";`);
  }
}
