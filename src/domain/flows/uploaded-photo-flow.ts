import { defineFlow } from './flow-contract';

export interface UploadedPhotoInput {
  photoId: string;
}

/** A photo whose upload finished: analysed like a downloaded one, then given its place in the book. */
export const UPLOADED_PHOTO_FLOW = defineFlow<UploadedPhotoInput, { placed: boolean }>({
  name: 'uploadedPhoto',
  queue: 'builds',
  workflowId: ({ photoId }) => `uploaded-photo:${photoId}`,
});
