import type { EntityManager } from '@mikro-orm/postgresql';
import type { Project } from '../../db/entities';
import type { PhotosStatus, ProjectStatus } from '../../domain/project-status';
import { PROJECT_SUBJECT } from '../../domain/status-subjects';
import { recordStatusChange, type StatusChange, type StatusEventMessage } from '../../events/status-event-log';

/**
 * A project's status event: its current status and photos status as one snapshot. Subscribers get
 * a full snapshot each time, so a missed event never leaves them wrong.
 */
export function projectStatusChange(project: {
  id: string;
  status: ProjectStatus;
  photosStatus: PhotosStatus;
  ownerExternalId: string;
}): StatusChange {
  return {
    subjectType: PROJECT_SUBJECT,
    subjectId: project.id,
    status: project.status,
    detail: { photos: project.photosStatus, user: project.ownerExternalId },
  };
}

/** Records the project's status event in the caller's transaction. */
export function recordProjectStatus(em: EntityManager, project: Project): Promise<StatusEventMessage> {
  return recordStatusChange(
    em,
    { clientId: project.client.id, env: project.env },
    projectStatusChange({
      id: project.id,
      status: project.status,
      photosStatus: project.photosStatus,
      ownerExternalId: project.owner.externalId,
    }),
  );
}
