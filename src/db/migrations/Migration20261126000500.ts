import { Migration } from '@mikro-orm/migrations';

/** Shipping levels and tax rates per market, quotes, and the level, quote and warnings of an order. */
export class Migration20261126000500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "markets" add column "shipping_levels" jsonb not null default '[]', add column "tax_rates" jsonb not null default '[]';`,
    );
    this.addSql(
      `alter table "orders" add column "shipping_level" varchar(50) null, add column "quote_id" varchar(30) null, add column "warnings" jsonb not null default '[]';`,
    );
    this.addSql(
      `create table "quotes" ("id" varchar(30) not null, "client_id" uuid not null, "env" "environment" not null, "market_id" int not null, "currency" varchar(3) not null, "country_iso2" varchar(2) not null, "shipping_level" varchar(50) null, "lines" jsonb not null, "totals" jsonb not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, constraint "quotes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "quotes_client_id_env_expires_at_index" on "quotes" ("client_id", "env", "expires_at");`);
    this.addSql(
      `alter table "quotes" add constraint "quotes_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "quotes" cascade;`);
    this.addSql(`alter table "orders" drop column "shipping_level", drop column "quote_id", drop column "warnings";`);
    this.addSql(`alter table "markets" drop column "shipping_levels", drop column "tax_rates";`);
  }
}
