import { Migration } from '@mikro-orm/migrations';

/**
 * Print routing (issue 36): a shop's rules, default printers, hold window and accept timeout per
 * environment; on each order line the printer that holds its job and the routing decisions taken;
 * on each order the end of its hold window.
 */
export class Migration20261128050000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "print_settings" ("id" uuid not null, "client_id" uuid not null, "env" "environment" not null, ` +
        `"rules" jsonb not null default '[]', "default_printers" jsonb not null default '[]', ` +
        `"hold_window_seconds" int not null default 0, "accept_timeout_seconds" int null, "updated_at" timestamptz not null, ` +
        `constraint "print_settings_pkey" primary key ("id"), ` +
        `constraint "print_settings_client_id_env_unique" unique ("client_id", "env"), ` +
        `constraint "print_settings_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade);`,
    );
    this.addSql(`alter table "order_lines" add column if not exists "printer" varchar(50) null;`);
    this.addSql(`alter table "order_lines" add column if not exists "routing" jsonb null;`);
    this.addSql(`alter table "orders" add column if not exists "hold_until" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop column if exists "hold_until";`);
    this.addSql(`alter table "order_lines" drop column if exists "routing";`);
    this.addSql(`alter table "order_lines" drop column if exists "printer";`);
    this.addSql(`drop table if exists "print_settings";`);
  }
}
