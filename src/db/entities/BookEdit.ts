import { Entity, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import type { Book } from '../../domain/book';
import { Project } from './Project';

/**
 * One edit of a project's book, kept so it can be undone and redone after a reload
 * (src/services/editor/book-history.ts): the book before and after it, and the revision it made. Not
 * tenant-filtered on its own: it is only ever reached through its project's row, read under the
 * tenant filter and locked, and it goes with the project (on delete cascade).
 */
@Entity({ tableName: 'book_edits' })
export class BookEdit {
  @ManyToOne(() => Project, { primary: true, deleteRule: 'cascade' })
  project!: Project;

  /** The book revision this edit made. */
  @PrimaryKey({ type: 'integer' })
  revision!: number;

  /** What the edit did, as its mutation is named (`movePage`, `setSlotCrop`...). */
  @Property({ type: 'string', length: 40 })
  edit!: string;

  @Property({ type: 'json' })
  bookBefore!: Book;

  @Property({ type: 'json' })
  bookAfter!: Book;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();
}
