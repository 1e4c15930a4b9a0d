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

/** Each project's lazy `book` column, read only for these projects; null where none was built. */
export async function booksOfProjects(em: EntityManager, projectIds: readonly string[]): Promise<(Book | null)[]> {
  const rows = await em.find(
    Project,
    { id: { $in: [...projectIds] } },
    { fields: ['id', 'book'], disableIdentityMap: true },
  );
  const books = new Map(rows.map((row) => [row.id, row.book ?? null]));
  return projectIds.map((id) => books.get(id) ?? null);
}
