/** Where a project's files live in the FileStore; everything of a project sits below one prefix. */
export function projectPrefix(clientId: string, env: string, projectId: string): string {
  return `${clientId}/${env}/projects/${projectId}`;
}

export const photoOriginalKey = (prefix: string, photoId: string) => `${prefix}/photos/${photoId}/original`;
export const photoThumbnailKey = (prefix: string, photoId: string) => `${prefix}/photos/${photoId}/thumbnail.jpg`;
export const previewKey = (prefix: string) => `${prefix}/preview.jpg`;
