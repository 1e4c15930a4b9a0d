import type { ActivityOptions, FlowDefinition } from './flow-context';
import type { ProjectBuildActivities } from '../src/activities/project-build-activities';
import type { UploadedPhotoActivities } from '../src/activities/uploaded-photo-activities';
import { UPLOADED_PHOTO_FLOW } from '../src/domain/flows';
import { DATABASE_ACTIVITY_POLICY } from '../src/domain/retry-policies';

type Activities = Pick<ProjectBuildActivities, 'analyzePhoto'> & UploadedPhotoActivities;

const imaging: ActivityOptions = {
  startToCloseTimeoutMs: 120_000,
  retry: { maximumAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 10_000 },
};

/**
 * A photo uploaded from the device (docs/api.md, Uploads), its bytes already stored: decoded and
 * measured like a downloaded photo (analyzing -> idle, or failed with NOT_AN_IMAGE), then placed in
 * the book when the project is editable.
 */
export const uploadedPhotoFlow: FlowDefinition<typeof UPLOADED_PHOTO_FLOW, Activities> = {
  contract: UPLOADED_PHOTO_FLOW,
  activityOptions: { analyzePhoto: imaging, placeUploadedPhoto: DATABASE_ACTIVITY_POLICY },
  async run({ activities }, { photoId }) {
    await activities.analyzePhoto(photoId);
    return { placed: await activities.placeUploadedPhoto(photoId) };
  },
};
