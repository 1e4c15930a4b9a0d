const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Whether `key` is a storage key: `/`-separated segments of safe characters, none `.` or `..`. */
export function isValidStorageKey(key: string): boolean {
  return KEY.test(key) && !key.split('/').some((segment) => segment === '.' || segment === '..');
}

export function assertValidStorageKey(key: string): void {
  if (!isValidStorageKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
  json: 'application/json; charset=utf-8',
};

/** The content type a file is served with, from its key's extension. */
export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}
