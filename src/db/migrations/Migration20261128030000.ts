import { Migration } from '@mikro-orm/migrations';

/** Proofs (`POST /v2/project/proof`): a project's print files rendered before the order, and the book they show. */
export class Migration20261128030000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "proofs" ("id" varchar(30) not null, "client_id" uuid not null, "env" "environment" not null, "project_id" varchar(40) not null, "revision" varchar(64) not null, "sku" varchar(100) not null, "psp" varchar(50) not null, "color_correction" boolean not null, "files" jsonb not null, "cover_pdf" jsonb not null, "interior_pdf" jsonb not null, "warnings" jsonb not null, "order_line_id" uuid null, "expires_at" timestamptz not null, "created_at" timestamptz not null, constraint "proofs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "proofs_project_id_index" on "proofs" ("project_id");`);
    this.addSql(`create index "proofs_client_id_env_expires_at_index" on "proofs" ("client_id", "env", "expires_at");`);
    this.addSql(`alter table "proofs" add constraint "proofs_order_line_id_unique" unique ("order_line_id");`);
    this.addSql(
      `alter table "proofs" add constraint "proofs_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "proofs" add constraint "proofs_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "proofs" add constraint "proofs_order_line_id_foreign" foreign key ("order_line_id") references "order_lines" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "proofs" cascade;`);
  }
}
