import { Migration } from '@mikro-orm/migrations';

/**
 * Print partners (issue 36): each shop's partner accounts per environment, sealed, and each
 * catalogue product's id at each partner.
 */
export class Migration20261128040000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "partner_accounts" ("id" uuid not null, "client_id" uuid not null, "env" "environment" not null, ` +
        `"partner" varchar(20) not null, "sealed_credentials" text not null, "credential_hint" varchar(20) not null, ` +
        `"callback_token_digest" varchar(64) not null, "sealed_callback_token" text not null, "shipping_methods" jsonb null, ` +
        `"created_at" timestamptz not null, "updated_at" timestamptz not null, ` +
        `constraint "partner_accounts_pkey" primary key ("id"), ` +
        `constraint "partner_accounts_partner_check" check ("partner" in ('prodigi', 'gelato', 'lulu')));`,
    );
    this.addSql(
      `alter table "partner_accounts" add constraint "partner_accounts_client_id_env_partner_unique" unique ("client_id", "env", "partner");`,
    );
    this.addSql(
      `alter table "partner_accounts" add constraint "partner_accounts_callback_token_digest_unique" unique ("callback_token_digest");`,
    );
    this.addSql(
      `alter table "partner_accounts" add constraint "partner_accounts_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "products" add column "partner_products" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "products" drop column "partner_products";`);
    this.addSql(`drop table if exists "partner_accounts" cascade;`);
  }
}
