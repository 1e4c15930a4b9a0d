import { Migration } from '@mikro-orm/migrations';

export class Migration20261121210000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create type "layout_type" as enum ('fastbook', 'smartbook');`);
    this.addSql(
      `create type "project_status" as enum ('created', 'building', 'editable', 'ordering', 'expired', 'deleted');`,
    );
    this.addSql(`create type "photos_status" as enum ('none', 'uploading', 'analyzing', 'idle');`);
    this.addSql(`create type "photo_status" as enum ('uploading', 'analyzing', 'idle', 'failed');`);
    this.addSql(
      `create table "projects" ("id" varchar(40) not null, "client_id" uuid not null, "env" "environment" not null, "owner_id" uuid not null, "product_id" bigint not null, "market_id" bigint not null, "sku" varchar(100) not null, "psp" varchar(50) not null, "language" varchar(35) not null, "layout_type" "layout_type" not null default 'fastbook', "e_commerce_plugin" boolean not null default false, "metadata" jsonb not null, "custom" jsonb not null, "callback_url" varchar(2000) null, "status" "project_status" not null default 'created', "photos_status" "photos_status" not null default 'none', "title" varchar(300) null, "preview_key" varchar(300) null, "book" jsonb null, "ordered" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, "expires_at" timestamptz not null, "deleted_at" timestamptz null, constraint "projects_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "projects_owner_listing_index" on "projects" ("owner_id", "created_at", "id");`);

    this.addSql(
      `create table "photos" ("id" uuid not null, "project_id" varchar(40) not null, "client_photo_id" varchar(200) null, "url" text not null, "asset_id" varchar(100) null, "position" int not null, "status" "photo_status" not null default 'uploading', "problem" jsonb null, "original_key" varchar(300) null, "thumbnail_key" varchar(300) null, "format" varchar(20) null, "bytes" int null, "width" int null, "height" int null, "exif_orientation" smallint null, "captured_at" timestamptz null, "sharpness" numeric(5,4) null, "quality" numeric(5,4) null, "created_at" timestamptz not null, constraint "photos_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "photos_project_id_position_index" on "photos" ("project_id", "position");`);

    this.addSql(
      `alter table "projects" add constraint "projects_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_owner_id_foreign" foreign key ("owner_id") references "end_users" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_market_id_foreign" foreign key ("market_id") references "markets" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "photos" add constraint "photos_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "photos" drop constraint "photos_project_id_foreign";`);

    this.addSql(`drop table if exists "projects" cascade;`);

    this.addSql(`drop table if exists "photos" cascade;`);

    this.addSql(`drop type "layout_type";`);
    this.addSql(`drop type "project_status";`);
    this.addSql(`drop type "photos_status";`);
    this.addSql(`drop type "photo_status";`);
  }
}
