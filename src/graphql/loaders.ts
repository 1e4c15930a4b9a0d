import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { booksOfProjects, photosOfProjects } from '../services/projects/project-batch-reads';

/**
 * Per-request batch loaders: a page of 100 projects costs one photo query, not 100. `em` is asked
 * for only when a batch runs (the request's fork is made on first use).
 */
export function createLoaders(ctx: { readonly em: EntityManager }) {
  return {
    photosByProject: new DataLoader((projectIds: readonly string[]) => photosOfProjects(ctx.em, projectIds)),
    /** The lazy `book` column, only for the projects whose pages or cover were asked for. */
    bookByProject: new DataLoader((projectIds: readonly string[]) => booksOfProjects(ctx.em, projectIds)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
