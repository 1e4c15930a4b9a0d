import { Migration } from '@mikro-orm/migrations';

/**
 * The limits every process of one database shares (src/services/tenancy/limit-store.ts): request
 * counters per key and window (rate-limiter-flexible's RateLimiterPostgres layout, created here so
 * that nothing creates tables at run time), and the graphql-ws slots each live process holds per
 * client. Unlogged: counters that a database crash empties only give clients a fresh window, and
 * each process writes its slots again when it finds its row gone.
 */
export class Migration20261127093000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create unlogged table "rate_limit_counts" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint null);`,
    );
    this.addSql(
      `create unlogged table "socket_slot_processes" ("process_id" uuid primary key, "seen_at" timestamptz not null);`,
    );
    this.addSql(
      `create unlogged table "socket_slots" ("process_id" uuid not null, "client_key" varchar(255) not null, "connections" integer not null default 0, "subscriptions" integer not null default 0, primary key ("client_key", "process_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "socket_slots";`);
    this.addSql(`drop table if exists "socket_slot_processes";`);
    this.addSql(`drop table if exists "rate_limit_counts";`);
  }
}
