import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** base62 of `length` characters from a CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const PROJECT_ID_PREFIX = 'p-';
export const PROJECT_ID_MAX_LENGTH = 40;
/** What lookups accept: the prefix and up to 38 characters (ours have 24 base62 ones). */
export const PROJECT_ID = new RegExp(`^${PROJECT_ID_PREFIX}[A-Za-z0-9_-]{1,${PROJECT_ID_MAX_LENGTH - PROJECT_ID_PREFIX.length}}$`);

/** Project ids are unguessable: they appear in editor links and asset URLs. */
export function newProjectId(): string {
  return `${PROJECT_ID_PREFIX}${randomBase62(24)}`;
}

/** Owner id for a project generated with neither email nor userId. */
export function newGeneratedUserId(): string {
  return `u-${randomBase62(20)}`;
}
