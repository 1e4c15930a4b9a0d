import type { EntityManager } from '@mikro-orm/postgresql';
import { Photo, Project } from '../../db/entities';
import type { Book } from '../../domain/book';

/**
 * Reads of many projects at once, for the GraphQL loaders that batch a page of projects into one
 * query. `em` is the request's tenant-scoped EntityManager; each answer is in the order of
 * `projectIds`.
 */

/** Each project's photos in page order; an empty list for a project without photos (or not found). */
export async function photosOfProjects(em: EntityManager, projectIds: readonly string[]): Promise<Photo[][]> {
  const photos = await em.find(Photo, { project: { $in: [...projectIds] } }, { orderBy: { position: 'asc' } });
  const byProject = new Map<string, Photo[]>(projectIds.map((id) => [id, []]));
  for (const photo of photos) byProject.get(photo.project.id)?.push(photo);
  return projectIds.map((id) => byProject.get(id)!);
}

/** A project's book as one read: the book, its revision and whether it has edits to undo and redo. */
export interface BookState {
  book: Book | null;
  revision: number;
  canUndo: boolean;
  canRedo: boolean;
}

/**
 * Each project's lazy `book` column with its revision, read only for these projects (one row each,
 * so the pages and the revision a client gets always belong together); a null book where none was
 * built (or the project was not found).
 */
export async function bookStatesOfProjects(em: EntityManager, projectIds: readonly string[]): Promise<BookState[]> {
  const rows = await em.find(
    Project,
    { id: { $in: [...projectIds] } },
    { fields: ['id', 'book', 'bookRevision', 'undoStack', 'redoStack'], disableIdentityMap: true },
  );
  const states = new Map(
    rows.map((row) => [
      row.id,
      {
        book: row.book ?? null,
        revision: row.bookRevision,
        canUndo: row.undoStack.length > 0,
        canRedo: row.redoStack.length > 0,
      },
    ]),
  );
  return projectIds.map((id) => states.get(id) ?? { book: null, revision: 0, canUndo: false, canRedo: false });
}
