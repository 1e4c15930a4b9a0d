import { Migration } from '@mikro-orm/migrations';

export class Migration20261121164249 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create type "environment" as enum ('dev', 'prod');`);
    this.addSql(
      `create table "clients" ("id" uuid not null, "name" varchar(200) not null, "catalogue_base_url" varchar(500) null, "prices_include_tax" boolean not null default true, "created_at" timestamptz not null default now(), constraint "clients_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "categories" ("id" bigserial primary key, "client_id" uuid not null, "category_id" int not null, "name" jsonb not null, "subtitle" jsonb not null, "thumbnail" varchar(500) not null, "description" jsonb not null, "description_json" jsonb not null, "carousel" jsonb not null, "sort_order" int not null, "tag" jsonb null, "top_seller" boolean not null default false, "disabled" boolean not null default false);`,
    );
    this.addSql(
      `alter table "categories" add constraint "categories_client_id_category_id_unique" unique ("client_id", "category_id");`,
    );

    this.addSql(
      `create table "client_credentials" ("id" bigserial primary key, "client_id" uuid not null, "env" "environment" not null, "access_key" varchar(64) not null, "access_secret_digest" varchar(64) not null, "api_key_digest" varchar(64) not null, "issued_at" timestamptz not null default now());`,
    );
    this.addSql(
      `alter table "client_credentials" add constraint "client_credentials_access_key_unique" unique ("access_key");`,
    );
    this.addSql(
      `alter table "client_credentials" add constraint "client_credentials_api_key_digest_unique" unique ("api_key_digest");`,
    );
    this.addSql(
      `alter table "client_credentials" add constraint "client_credentials_client_id_env_unique" unique ("client_id", "env");`,
    );

    this.addSql(
      `create table "currencies" ("id" bigserial primary key, "client_id" uuid not null, "code" varchar(3) not null, "left" varchar(10) not null, "right" varchar(10) not null, "decimals" smallint not null);`,
    );
    this.addSql(
      `alter table "currencies" add constraint "currencies_client_id_code_unique" unique ("client_id", "code");`,
    );

    this.addSql(
      `create table "end_users" ("id" uuid not null, "client_id" uuid not null, "env" "environment" not null, "external_id" varchar(320) not null, "email" varchar(320) null, "created_at" timestamptz not null default now(), constraint "end_users_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "end_users" add constraint "end_users_client_id_env_external_id_unique" unique ("client_id", "env", "external_id");`,
    );

    this.addSql(
      `create table "markets" ("id" bigserial primary key, "client_id" uuid not null, "market_id" int not null, "market_id_alt" varchar(50) not null, "store_name" jsonb not null, "iso_code2" varchar(2) not null, "currency_id" bigint not null, "ships_within" jsonb not null);`,
    );
    this.addSql(
      `alter table "markets" add constraint "markets_client_id_market_id_alt_unique" unique ("client_id", "market_id_alt");`,
    );
    this.addSql(
      `alter table "markets" add constraint "markets_client_id_market_id_unique" unique ("client_id", "market_id");`,
    );

    this.addSql(
      `create table "products" ("id" bigserial primary key, "client_id" uuid not null, "product_id" int not null, "sku" varchar(100) not null, "min_version" int not null, "category_id" bigint not null, "name" jsonb not null, "meta_title" jsonb not null, "description" jsonb not null, "description_json" jsonb not null, "thumbnail" varchar(500) not null, "disabled" boolean not null default false, "specifications" jsonb not null, "render_options" jsonb not null, "sort_order" int not null);`,
    );
    this.addSql(`alter table "products" add constraint "products_client_id_sku_unique" unique ("client_id", "sku");`);
    this.addSql(
      `alter table "products" add constraint "products_client_id_product_id_unique" unique ("client_id", "product_id");`,
    );

    this.addSql(
      `create table "product_attributes" ("id" bigserial primary key, "product_id" bigint not null, "type" varchar(50) not null, "name" jsonb not null, "subtitle" jsonb not null, "sort_order" int not null, "tag" jsonb null, "top_seller" boolean not null default false, "disabled" boolean not null default false);`,
    );
    this.addSql(
      `create index "product_attributes_product_id_sort_order_index" on "product_attributes" ("product_id", "sort_order");`,
    );

    this.addSql(
      `create table "product_prices" ("id" bigserial primary key, "product_id" bigint not null, "market_id" bigint not null, "price" numeric(14,4) not null, "extra_cost_per_page" numeric(14,4) not null);`,
    );
    this.addSql(
      `alter table "product_prices" add constraint "product_prices_product_id_market_id_unique" unique ("product_id", "market_id");`,
    );

    this.addSql(
      `create table "status_events" ("id" bigserial primary key, "client_id" uuid not null, "env" "environment" not null, "subject_type" varchar(30) not null, "subject_id" varchar(100) not null, "status" varchar(50) not null, "sequence" int not null, "detail" jsonb not null, "occurred_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "status_events_client_id_env_id_index" on "status_events" ("client_id", "env", "id");`);
    this.addSql(
      `alter table "status_events" add constraint "status_events_subject_type_subject_id_sequence_unique" unique ("subject_type", "subject_id", "sequence");`,
    );

    this.addSql(
      `alter table "categories" add constraint "categories_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "client_credentials" add constraint "client_credentials_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "currencies" add constraint "currencies_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "end_users" add constraint "end_users_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "markets" add constraint "markets_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "markets" add constraint "markets_currency_id_foreign" foreign key ("currency_id") references "currencies" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "products" add constraint "products_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "products" add constraint "products_category_id_foreign" foreign key ("category_id") references "categories" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "product_attributes" add constraint "product_attributes_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "product_prices" add constraint "product_prices_product_id_foreign" foreign key ("product_id") references "products" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "product_prices" add constraint "product_prices_market_id_foreign" foreign key ("market_id") references "markets" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "status_events" add constraint "status_events_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "categories" drop constraint "categories_client_id_foreign";`);

    this.addSql(`alter table "client_credentials" drop constraint "client_credentials_client_id_foreign";`);

    this.addSql(`alter table "currencies" drop constraint "currencies_client_id_foreign";`);

    this.addSql(`alter table "end_users" drop constraint "end_users_client_id_foreign";`);

    this.addSql(`alter table "markets" drop constraint "markets_client_id_foreign";`);

    this.addSql(`alter table "products" drop constraint "products_client_id_foreign";`);

    this.addSql(`alter table "status_events" drop constraint "status_events_client_id_foreign";`);

    this.addSql(`alter table "products" drop constraint "products_category_id_foreign";`);

    this.addSql(`alter table "markets" drop constraint "markets_currency_id_foreign";`);

    this.addSql(`alter table "product_prices" drop constraint "product_prices_market_id_foreign";`);

    this.addSql(`alter table "product_attributes" drop constraint "product_attributes_product_id_foreign";`);

    this.addSql(`alter table "product_prices" drop constraint "product_prices_product_id_foreign";`);

    this.addSql(`drop table if exists "clients" cascade;`);

    this.addSql(`drop table if exists "categories" cascade;`);

    this.addSql(`drop table if exists "client_credentials" cascade;`);

    this.addSql(`drop table if exists "currencies" cascade;`);

    this.addSql(`drop table if exists "end_users" cascade;`);

    this.addSql(`drop table if exists "markets" cascade;`);

    this.addSql(`drop table if exists "products" cascade;`);

    this.addSql(`drop table if exists "product_attributes" cascade;`);

    this.addSql(`drop table if exists "product_prices" cascade;`);

    this.addSql(`drop table if exists "status_events" cascade;`);

    this.addSql(`drop type "environment";`);
  }
}
