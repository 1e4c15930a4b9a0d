import { Migration } from '@mikro-orm/migrations';

/** The embedded workflow runner's tables: runs, their step journal, and signals waiting for them. */
export class Migration20261121200000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "workflow_runs" ("workflow_id" text not null, "flow_name" varchar(100) not null, "input" jsonb null, "status" text check ("status" in ('running', 'completed', 'failed')) not null default 'running', "result" jsonb null, "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "workflow_runs_pkey" primary key ("workflow_id"));`,
    );
    this.addSql(`create index "workflow_runs_status_index" on "workflow_runs" ("status");`);

    this.addSql(
      `create table "workflow_signals" ("id" bigserial primary key, "workflow_id" text not null, "name" varchar(200) not null, "payload" jsonb null, "consumed_at" timestamptz null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(
      `create index "workflow_signals_workflow_id_name_id_index" on "workflow_signals" ("workflow_id", "name", "id");`,
    );

    this.addSql(
      `create table "workflow_steps" ("workflow_id" text not null, "seq" int not null, "kind" text check ("kind" in ('activity', 'sleep', 'signal')) not null, "name" varchar(200) not null, "outcome" jsonb null, "error" text null, "completed_at" timestamptz null, "completion_order" int null, constraint "workflow_steps_pkey" primary key ("workflow_id", "seq"));`,
    );

    this.addSql(
      `alter table "workflow_signals" add constraint "workflow_signals_workflow_id_foreign" foreign key ("workflow_id") references "workflow_runs" ("workflow_id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "workflow_steps" add constraint "workflow_steps_workflow_id_foreign" foreign key ("workflow_id") references "workflow_runs" ("workflow_id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "workflow_signals" cascade;`);

    this.addSql(`drop table if exists "workflow_steps" cascade;`);

    this.addSql(`drop table if exists "workflow_runs" cascade;`);
  }
}
