import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';

/**
 * The HMAC key for credential digests: CREDENTIAL_PEPPER when set, otherwise a key generated once
 * and kept in DATA_DIR, so a developer's machine needs no setup and the key never sits in the database.
 */
export async function loadCredentialPepper(config: Config): Promise<string> {
  if (config.credentialPepper) return config.credentialPepper;
  const file = path.join(config.dataDir, 'credential-pepper');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  const pepper = randomBytes(32).toString('base64url');
  try {
    await writeFile(file, pepper, { mode: 0o600, flag: 'wx' });
    return pepper;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}
