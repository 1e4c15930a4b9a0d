import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Photo, Project } from '../db/entities';
import type { Book } from '../domain/book';

/**
 * Per-request batch loaders: a page of 100 projects costs one photo query, not 100. `em` is asked
 * for only when a batch runs (the request's fork is made on first use).
 */
export function createLoaders(ctx: { readonly em: EntityManager }) {
  return {
    photosByProject: new DataLoader<string, Photo[]>(async (projectIds) => {
      const photos = await ctx.em.find(Photo, { project: { $in: [...projectIds] } }, { orderBy: { position: 'asc' } });
      const byProject = new Map<string, Photo[]>(projectIds.map((id) => [id, []]));
      for (const photo of photos) byProject.get(photo.project.id)?.push(photo);
      return projectIds.map((id) => byProject.get(id)!);
    }),
    /** The lazy `book` column, only for the projects whose pages or cover were asked for. */
    bookByProject: new DataLoader<string, Book | null>(async (projectIds) => {
      const rows = await ctx.em.find(Project, { id: { $in: [...projectIds] } }, { fields: ['id', 'book'], disableIdentityMap: true });
      const books = new Map(rows.map((row) => [row.id, row.book ?? null]));
      return projectIds.map((id) => books.get(id) ?? null);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
