import { Migration } from '@mikro-orm/migrations';

export class Migration20261121220000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create type "order_status" as enum ('waiting', 'expiring', 'last call', 'files missing', 'received', 'paid', 'processing', 'rendering', 'rendered', 'sending printjob', 'sent printjob', 'accepted', 'printing', 'printed', 'delivering', 'complete', 'ready for collection', 'collected', 'abnormal', 'failed processing', 'on hold', 'undelivered', 'expired', 'cleaned', 'cancelled', 'refunded', 'abandoned', 'deleted');`,
    );
    this.addSql(
      `create table "orders" ("id" uuid not null, "client_id" uuid not null, "env" "environment" not null, "order_id" varchar(200) not null, "request_digest" varchar(64) not null, "market_id" bigint not null, "currency" varchar(3) not null, "email" varchar(320) null, "first_name" varchar(200) null, "last_name" varchar(200) null, "telephone" varchar(50) null, "shipping_address" jsonb not null, "sub_total" numeric(14,4) not null, "shipping_cost" numeric(14,4) not null default 0, "shipping_method" varchar(100) null, "coupon_code" varchar(100) null, "coupon_value" numeric(14,4) not null default 0, "grand_total" numeric(14,4) not null, "payment_method" varchar(100) null, "payment_reference" varchar(200) null, "payment_status" varchar(50) not null default 'Payment Complete', "confirmation" text not null, "created_at" timestamptz not null, constraint "orders_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "orders_client_id_env_email_created_at_id_index" on "orders" ("client_id", "env", "email", "created_at", "id");`,
    );
    this.addSql(
      `alter table "orders" add constraint "orders_client_id_env_order_id_unique" unique ("client_id", "env", "order_id");`,
    );

    this.addSql(
      `create table "order_lines" ("id" uuid not null, "order_id" uuid not null, "project_id" varchar(40) not null, "position" smallint not null, "quantity" int not null, "line_item_total" numeric(14,4) not null, "metadata" jsonb not null, "sku" varchar(100) not null, "psp" varchar(50) not null, "title" varchar(300) not null, "cover_preview_key" varchar(300) null, "status" "order_status" not null, "status_changed_at" timestamptz not null, "printer_job_id" varchar(200) null, "tracking_url" varchar(2000) null, "page_count" int null, "pdf_key" varchar(300) null, "manifest_key" varchar(300) null, "warnings" jsonb not null, constraint "order_lines_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "order_lines_project_id_index" on "order_lines" ("project_id");`);
    this.addSql(`create index "order_lines_psp_printer_job_id_index" on "order_lines" ("psp", "printer_job_id");`);
    this.addSql(
      `alter table "order_lines" add constraint "order_lines_order_id_project_id_unique" unique ("order_id", "project_id");`,
    );

    this.addSql(
      `alter table "orders" add constraint "orders_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "orders" add constraint "orders_market_id_foreign" foreign key ("market_id") references "markets" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "order_lines" add constraint "order_lines_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "order_lines" add constraint "order_lines_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_lines" drop constraint "order_lines_order_id_foreign";`);

    this.addSql(`drop table if exists "orders" cascade;`);

    this.addSql(`drop table if exists "order_lines" cascade;`);

    this.addSql(`drop type "order_status";`);
  }
}
