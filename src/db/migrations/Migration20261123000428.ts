import { Migration } from '@mikro-orm/migrations';

/** Idempotency-Key records (src/db/entities/IdempotencyRecord.ts). */
export class Migration20261123000428 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "idempotency_keys" ("id" bigserial primary key, "client_id" uuid not null, "env" "environment" not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "status" int null, "content_type" varchar(200) null, "body" text null, "created_at" timestamptz not null, "expires_at" timestamptz not null);`,
    );
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_client_id_env_key_unique" unique ("client_id", "env", "key");`,
    );
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }
}
