import { Migration } from '@mikro-orm/migrations';

/**
 * Book revisions and the edit history (docs/api.md, Editor): `book_revision` counts the book's
 * changes, `undo_stack`/`redo_stack` name the edits (rows of `book_edits`, the book before and after)
 * Undo and Redo take back and replay. A writer of `book` other than the editor (a build, a rebuild
 * for an order) does not know about revisions: the trigger moves the revision for it and ends the
 * history, whose books no longer follow from the book now.
 */
export class Migration20261128090000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "projects" add column "book_revision" int not null default 0, add column "undo_stack" jsonb not null default '[]', add column "redo_stack" jsonb not null default '[]';`,
    );
    this.addSql(
      `create table "book_edits" ("project_id" varchar(40) not null, "revision" int not null, "edit" varchar(40) not null, "book_before" jsonb not null, "book_after" jsonb not null, "created_at" timestamptz not null, constraint "book_edits_pkey" primary key ("project_id", "revision"));`,
    );
    this.addSql(
      `alter table "book_edits" add constraint "book_edits_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create or replace function projects_book_revision() returns trigger language plpgsql as $$
      begin
        if new.book is distinct from old.book and new.book_revision = old.book_revision then
          new.book_revision := old.book_revision + 1;
          new.undo_stack := '[]';
          new.redo_stack := '[]';
        end if;
        return new;
      end $$;`);
    this.addSql(
      `create trigger "projects_book_revision" before update of "book" on "projects" for each row execute function projects_book_revision();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "projects_book_revision" on "projects";`);
    this.addSql(`drop function projects_book_revision();`);
    this.addSql(`drop table "book_edits";`);
    this.addSql(
      `alter table "projects" drop column "book_revision", drop column "undo_stack", drop column "redo_stack";`,
    );
  }
}
