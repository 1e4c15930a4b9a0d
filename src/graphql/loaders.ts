import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Photo } from '../db/entities';

/** Per-request batch loaders: a page of 100 projects costs one photo query, not 100. */
export function createLoaders(em: EntityManager) {
  return {
    photosByProject: new DataLoader<string, Photo[]>(async (projectIds) => {
      const photos = await em.find(Photo, { project: { $in: [...projectIds] } }, { orderBy: { position: 'asc' } });
      const byProject = new Map<string, Photo[]>(projectIds.map((id) => [id, []]));
      for (const photo of photos) byProject.get(photo.project.id)?.push(photo);
      return projectIds.map((id) => byProject.get(id)!);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
