import { Type } from 'typebox';
import { ValidationError, type FieldError } from '../../domain/errors';
import { MAX_PHOTOS } from '../../domain/limits';

export const MAX_URL_LENGTH = 2048;

const HttpUrl = Type.String({ maxLength: MAX_URL_LENGTH, pattern: '^https?://' });

/** A photo as a client sends it: a URL, or `{id, url}`. */
const PhotoInput = Type.Union(
  [
    HttpUrl,
    Type.Object({ id: Type.Optional(Type.Unsafe<string | number>({ type: ['string', 'number'] })), url: HttpUrl }),
  ],
  { description: 'an http(s) URL or an object {id, url}' },
);

export const PhotoInputs = Type.Array(PhotoInput, { maxItems: MAX_PHOTOS });

export interface ParsedPhoto {
  clientPhotoId: string | null;
  url: string;
}

/** Checks every entry and reports all bad ones at once, by index. */
export function parsePhotos(photos: readonly unknown[] | undefined, path: string): ParsedPhoto[] {
  if (photos === undefined || photos === null) return [];
  if (!Array.isArray(photos)) throw ValidationError.field(path, 'must be an array of URLs or {id, url} objects');
  if (photos.length > MAX_PHOTOS) throw ValidationError.field(path, `must have at most ${MAX_PHOTOS} photos`);
  const errors: FieldError[] = [];
  const parsed = photos.map((entry, i): ParsedPhoto => {
    const at = `${path}[${i}]`;
    if (typeof entry === 'string') {
      if (!isHttpUrl(entry)) errors.push({ path: at, message: 'must be an absolute http(s) URL' });
      return { clientPhotoId: null, url: entry };
    }
    if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      const { id, url } = entry as Record<string, unknown>;
      if (typeof url !== 'string' || !isHttpUrl(url))
        errors.push({ path: `${at}.url`, message: 'must be an absolute http(s) URL' });
      if (id !== undefined && typeof id !== 'string' && typeof id !== 'number')
        errors.push({ path: `${at}.id`, message: 'must be a string' });
      return { clientPhotoId: id === undefined ? null : String(id), url: String(url) };
    }
    errors.push({ path: at, message: 'must be a URL or an object {id, url}' });
    return { clientPhotoId: null, url: '' };
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return parsed;
}

export function isHttpUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
}
