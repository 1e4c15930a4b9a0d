/**
 * Where a project's files live in the FileStore; everything of a project sits below one prefix,
 * named by the project's random `storageKey`, never by its id: the id is the editor link's
 * credential, and these keys appear in every file URL the API hands out.
 */
export function projectPrefix(clientId: string, env: string, storageKey: string): string {
  return `${clientId}/${env}/projects/${storageKey}`;
}

export const photoOriginalKey = (prefix: string, photoId: string) => `${prefix}/photos/${photoId}/original`;
export const photoThumbnailKey = (prefix: string, photoId: string) => `${prefix}/photos/${photoId}/thumbnail.jpg`;
export const previewKey = (prefix: string) => `${prefix}/preview.jpg`;
