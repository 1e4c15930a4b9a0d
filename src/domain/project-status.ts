import { ConflictError } from './errors';

/** docs/api.md, Project statuses (`status.project`). */
export const PROJECT_STATUSES = [
  'created',
  'building',
  'failed',
  'editable',
  'ordering',
  'expired',
  'deleted',
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** docs/api.md, Photo statuses: the status of a project (`status.photos`): the state of its photos as a whole. */
export const PHOTOS_STATUSES = ['none', 'uploading', 'analyzing', 'idle'] as const;
export type PhotosStatus = (typeof PHOTOS_STATUSES)[number];

/** One photo's own state; `failed` photos carry a problem and count as settled. */
export const PHOTO_STATUSES = ['uploading', 'analyzing', 'idle', 'failed'] as const;
export type PhotoStatus = (typeof PHOTO_STATUSES)[number];

/** Allowed moves of `status.project`; `moveProject` refuses anything else. */
export const PROJECT_TRANSITIONS: Record<ProjectStatus, readonly ProjectStatus[]> = {
  created: ['building', 'deleted', 'expired'],
  building: ['editable', 'failed', 'deleted', 'expired'],
  // The build gave up (its reason in `buildProblem`); an operator's rebuild (`project rebuild`) or
  // an order that sends new photos builds it again.
  failed: ['building', 'deleted', 'expired'],
  editable: ['building', 'ordering', 'deleted', 'expired'],
  // An order that sends new photos replaces the project's and rebuilds the book before printing,
  // also when the project was already ordered once; the fulfilment moves it back to `ordering`.
  ordering: ['building', 'deleted'],
  expired: ['deleted'],
  deleted: [],
};

export function canMoveProject(from: ProjectStatus, to: ProjectStatus): boolean {
  return from === to || PROJECT_TRANSITIONS[from].includes(to);
}

/**
 * The one place a project's status changes: along the table or not at all. Staying put changes
 * nothing and answers false; a move the table does not allow throws `PROJECT_STATUS_CONFLICT`.
 * The caller records the status event in the same transaction.
 */
export function moveProject(
  project: { id: string; status: ProjectStatus; updatedAt: Date },
  to: ProjectStatus,
  now = new Date(),
): boolean {
  if (project.status === to) return false;
  if (!canMoveProject(project.status, to)) {
    throw new ConflictError(
      'PROJECT_STATUS_CONFLICT',
      `project ${project.id} is ${project.status} and cannot become ${to}`,
    );
  }
  project.status = to;
  project.updatedAt = now;
  return true;
}

/** The photos status of a project from its photos' own states. */
export function photosStatusOf(photos: readonly { status: PhotoStatus }[]): PhotosStatus {
  if (photos.length === 0) return 'none';
  if (photos.some((p) => p.status === 'uploading')) return 'uploading';
  if (photos.some((p) => p.status === 'analyzing')) return 'analyzing';
  return 'idle';
}
