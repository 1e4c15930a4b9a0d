import type { Project } from '../../db/entities';
import type { FileStore } from '../../storage/file-store';
import type { ProjectStatus } from '../../domain/project-status';

/** docs/api.md, Project object. `status`/`ordered` appear in lists; `endUserId` in duplicate/transfer. */
export interface ProjectView {
  title: string;
  preview: string;
  id: string;
  status?: { photos: string; project: string };
  endUserId?: string;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  product: { psp: string; sku: string; marketId: number; marketIdAlt: string };
  link: string;
  ordered?: boolean;
}

/** A project past its expiry reports `expired` until it is ordered or deleted. */
export function effectiveStatus(project: Project, now = Date.now()): ProjectStatus {
  if ((project.status === 'created' || project.status === 'building' || project.status === 'editable') && project.expiresAt.getTime() <= now) {
    return 'expired';
  }
  return project.status;
}

export function projectView(project: Project, files: FileStore, frontendUrl: string, shape: 'list' | 'owned'): ProjectView {
  const link = new URL(frontendUrl);
  link.search = new URLSearchParams({ id: project.id }).toString();
  const view: ProjectView = {
    title: project.title ?? project.sku,
    preview: project.previewKey ? files.url(project.previewKey) : '',
    id: project.id,
    createdAt: project.createdAt.getTime(),
    updatedAt: project.updatedAt.getTime(),
    expiresAt: Math.floor(project.expiresAt.getTime() / 1000),
    product: { psp: project.psp, sku: project.sku, marketId: project.market.marketId, marketIdAlt: project.market.marketIdAlt },
    link: link.toString(),
  };
  if (shape === 'list') {
    view.status = { photos: project.photosStatus, project: effectiveStatus(project) };
    view.ordered = project.ordered;
  } else {
    view.endUserId = project.owner.externalId;
  }
  return view;
}
