import { Migration } from '@mikro-orm/migrations';

/**
 * Faults end in a state someone can act on (docs/reliability.md): a project whose build gave up is
 * `failed` with its `build_problem`; an order line that failed in production keeps its
 * `failure_reason` while `failed processing`. Printer job ids are matched to the latest job a printer
 * was sent under that id (`printer_job_sent_at`): a printer that reissues ids after a restart must not
 * move an older order. Lines sent before this have no time and count as older than any that has one.
 */
export class Migration20261127140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter type "project_status" add value if not exists 'failed' after 'building';`);
    this.addSql(`alter table "projects" add column "build_problem" varchar(500) null;`);
    this.addSql(
      `alter table "order_lines" add column "failure_reason" varchar(500) null, add column "printer_job_sent_at" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_lines" drop column "printer_job_sent_at", drop column "failure_reason";`);
    this.addSql(`alter table "projects" drop column "build_problem";`);
    // PostgreSQL cannot drop an enum value: `failed` stays in the type, unused once no project has it.
    this.addSql(`update "projects" set "status" = 'building' where "status" = 'failed';`);
  }
}
