import { randomBytes } from 'node:crypto';
import { PROJECT_ID_PREFIX } from '../../domain/ids';

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

/** A new project id in the domain's format (unguessable: it appears in editor links and asset URLs). */
export function newProjectId(): string {
  return `${PROJECT_ID_PREFIX}${randomBase62(24)}`;
}

/** Owner id for a project generated with neither email nor userId. */
export function newGeneratedUserId(): string {
  return `u-${randomBase62(20)}`;
}

/**
 * A project's file folder (storage-keys.ts): as random as a project id and drawn apart from it,
 * so a file URL reveals nothing of the editor link. New rows get one from the database's default.
 */
export function newStorageKey(): string {
  return randomBase62(24);
}
