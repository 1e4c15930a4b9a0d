import { Migration } from '@mikro-orm/migrations';

/**
 * A webhook delivery keeps the trace of the change that recorded its event (W3C `traceparent`, 55
 * characters): the outbox relay starts the delivery in that trace, so the shop's webhook appears in the
 * trace of the request or flow that caused it. Null when tracing is off and for deliveries recorded before.
 */
export class Migration20261127160000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" add column "traceparent" varchar(55) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop column "traceparent";`);
  }
}
