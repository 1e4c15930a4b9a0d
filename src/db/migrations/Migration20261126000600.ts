import { Migration } from '@mikro-orm/migrations';

/**
 * The events outbox (src/db/entities/EventRecord.ts), ordered and relayed webhook deliveries, event
 * types per webhook endpoint, and parcels with shipped/delivered times per order line.
 */
export class Migration20261126000600 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "events" ("position" bigserial primary key, "event_id" varchar(40) not null, "client_id" uuid not null, "env" "environment" not null, "type" varchar(50) not null, "order_id" varchar(200) null, "project_id" varchar(40) null, "sequence" int null, "data" jsonb not null, "occurred_at" timestamptz not null);`,
    );
    this.addSql(
      `create index "events_client_id_env_order_id_position_index" on "events" ("client_id", "env", "order_id", "position");`,
    );
    this.addSql(`create index "events_client_id_env_position_index" on "events" ("client_id", "env", "position");`);
    this.addSql(`alter table "events" add constraint "events_event_id_unique" unique ("event_id");`);

    this.addSql(
      `alter table "events" add constraint "events_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "order_lines" add column "parcels" jsonb not null default '[]', add column "shipped_at" timestamptz null, add column "delivered_at" timestamptz null;`,
    );
    this.addSql(`alter table "order_lines" alter column "parcels" drop default;`);

    this.addSql(
      `alter table "webhook_deliveries" add column "event_id" varchar(40) null, add column "ordering_key" varchar(250) null, add column "position" bigint null, add column "dispatched_at" timestamptz null;`,
    );
    // Deliveries made before the relay existed were started by their writer.
    this.addSql(`update "webhook_deliveries" set "dispatched_at" = "created_at";`);
    this.addSql(
      `create index "webhook_deliveries_dispatched_at_status_index" on "webhook_deliveries" ("dispatched_at", "status");`,
    );
    this.addSql(
      `create index "webhook_deliveries_client_id_env_ordering_key_position_index" on "webhook_deliveries" ("client_id", "env", "ordering_key", "position");`,
    );

    this.addSql(`alter table "webhook_endpoints" add column "event_types" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "events" cascade;`);

    this.addSql(
      `alter table "order_lines" drop column "parcels", drop column "shipped_at", drop column "delivered_at";`,
    );

    this.addSql(`drop index "webhook_deliveries_dispatched_at_status_index";`);
    this.addSql(`drop index "webhook_deliveries_client_id_env_ordering_key_position_index";`);
    this.addSql(
      `alter table "webhook_deliveries" drop column "event_id", drop column "ordering_key", drop column "position", drop column "dispatched_at";`,
    );

    this.addSql(`alter table "webhook_endpoints" drop column "event_types";`);
  }
}
