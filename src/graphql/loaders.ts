import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { bookStatesOfProjects, photosOfProjects } from '../services/projects/project-batch-reads';

/**
 * Per-request batch loaders: a page of 100 projects costs one photo query, not 100. `em` is asked
 * for only when a batch runs (the request's fork is made on first use).
 */
export function createLoaders(ctx: { readonly em: EntityManager }) {
  /** The lazy `book` column and its revision, only for the projects whose book was asked for. */
  const bookStateByProject = new DataLoader((projectIds: readonly string[]) =>
    bookStatesOfProjects(ctx.em, projectIds),
  );
  return {
    photosByProject: new DataLoader((projectIds: readonly string[]) => photosOfProjects(ctx.em, projectIds)),
    bookStateByProject,
    bookByProject: { load: async (projectId: string) => (await bookStateByProject.load(projectId)).book },
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
