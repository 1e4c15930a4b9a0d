import { Migration } from '@mikro-orm/migrations';

export class Migration20261122212019 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create type "campaign_status" as enum ('importing', 'generating', 'notifying', 'completed', 'failed');`,
    );
    this.addSql(
      `create type "campaign_row_state" as enum ('pending', 'invalid', 'duplicate', 'generated', 'notified', 'failed');`,
    );
    this.addSql(`create type "webhook_delivery_status" as enum ('pending', 'delivered', 'failed');`);
    this.addSql(
      `create table "campaigns" ("id" varchar(30) not null, "client_id" uuid not null, "env" "environment" not null, "csv_url" varchar(2000) not null, "status" "campaign_status" not null default 'importing', "reason" text null, "row_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, "finished_at" timestamptz null, constraint "campaigns_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "campaigns_client_id_env_created_at_id_index" on "campaigns" ("client_id", "env", "created_at", "id");`,
    );

    this.addSql(
      `create table "campaign_rows" ("id" bigserial primary key, "campaign_id" varchar(30) not null, "client_id" uuid not null, "env" "environment" not null, "line" int not null, "reference" varchar(500) null, "claimed_reference" varchar(500) null, "state" "campaign_row_state" not null default 'pending', "reason" text null, "input" jsonb not null, "project_id" varchar(40) null, "updated_at" timestamptz not null);`,
    );
    this.addSql(`create index "campaign_rows_project_id_index" on "campaign_rows" ("project_id");`);
    this.addSql(
      `create index "campaign_rows_campaign_id_state_line_index" on "campaign_rows" ("campaign_id", "state", "line");`,
    );
    this.addSql(
      `alter table "campaign_rows" add constraint "campaign_rows_reference_claim_unique" unique ("client_id", "env", "claimed_reference");`,
    );
    this.addSql(
      `alter table "campaign_rows" add constraint "campaign_rows_campaign_id_line_unique" unique ("campaign_id", "line");`,
    );

    this.addSql(
      `create table "webhook_deliveries" ("id" uuid not null, "client_id" uuid not null, "env" "environment" not null, "event_key" varchar(200) not null, "event" varchar(50) not null, "project_id" varchar(40) not null, "reference" varchar(500) not null, "campaign_id" varchar(30) null, "url" varchar(2000) not null, "payload" text not null, "status" "webhook_delivery_status" not null default 'pending', "round" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "webhook_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_deliveries_client_id_env_created_at_index" on "webhook_deliveries" ("client_id", "env", "created_at");`,
    );
    this.addSql(
      `create index "webhook_deliveries_campaign_id_created_at_index" on "webhook_deliveries" ("campaign_id", "created_at");`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_event_key_unique" unique ("event_key");`,
    );

    this.addSql(
      `create table "webhook_attempts" ("id" bigserial primary key, "delivery_id" uuid not null, "attempted_at" timestamptz not null, "status_code" int null, "latency_ms" int not null, "error" text null);`,
    );
    this.addSql(`create index "webhook_attempts_delivery_id_index" on "webhook_attempts" ("delivery_id");`);

    this.addSql(
      `create table "webhook_endpoints" ("id" uuid not null, "client_id" uuid not null, "env" "environment" not null, "url" varchar(2000) not null, "sealed_secret" text not null, "updated_at" timestamptz not null, constraint "webhook_endpoints_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_client_id_env_unique" unique ("client_id", "env");`,
    );

    this.addSql(
      `alter table "campaigns" add constraint "campaigns_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "campaign_rows" add constraint "campaign_rows_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "campaign_rows" add constraint "campaign_rows_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_deliveries" add constraint "webhook_deliveries_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_endpoints" add constraint "webhook_endpoints_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaign_rows" drop constraint "campaign_rows_campaign_id_foreign";`);

    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_campaign_id_foreign";`);

    this.addSql(`alter table "webhook_attempts" drop constraint "webhook_attempts_delivery_id_foreign";`);

    this.addSql(`drop table if exists "campaigns" cascade;`);

    this.addSql(`drop table if exists "campaign_rows" cascade;`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);

    this.addSql(`drop table if exists "webhook_attempts" cascade;`);

    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);

    this.addSql(`drop type "campaign_status";`);
    this.addSql(`drop type "campaign_row_state";`);
    this.addSql(`drop type "webhook_delivery_status";`);
  }
}
