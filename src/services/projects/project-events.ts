import type { EntityManager } from '@mikro-orm/postgresql';
import type { Project } from '../../db/entities';
import { PROJECT_SUBJECT } from '../../domain/status-subjects';
import { recordStatusChange, type StatusEventMessage } from '../../events/status-event-log';

/**
 * Records the project's current status and photos status as one status event, in the caller's
 * transaction. Subscribers get a full snapshot each time, so a missed event never leaves them wrong.
 */
export function recordProjectStatus(em: EntityManager, project: Project): Promise<StatusEventMessage> {
  return recordStatusChange(
    em,
    { clientId: project.client.id, env: project.env },
    {
      subjectType: PROJECT_SUBJECT,
      subjectId: project.id,
      status: project.status,
      detail: { photos: project.photosStatus, user: project.owner.externalId },
    },
  );
}
