import { Migration } from '@mikro-orm/migrations';

/**
 * The editor link's own credential (src/services/projects/editor-links.ts): each project gets a
 * random seed its link's key is derived from under the credential pepper, so the link no longer
 * rests on the project id alone and a transfer can end it. The default is volatile, so every
 * existing project gets a seed of its own and the links listings hand out keep working.
 */
export class Migration20261127120010 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "projects" add column "editor_key_seed" varchar(40) not null default replace(gen_random_uuid()::text, '-', '');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop column "editor_key_seed";`);
  }
}
