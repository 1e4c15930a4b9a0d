import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets must be readable by the service (it signs with them), so they cannot be
 * stored as digests like credentials. They are sealed with AES-256-GCM under a key derived from
 * the credential pepper (CREDENTIAL_PEPPER, or the key file in DATA_DIR), which never sits in the
 * database: a stolen dump holds no usable secret.
 */

function sealingKey(pepper: string): Buffer {
  return createHmac('sha256', pepper).update('webhook-signing-secrets/v1').digest();
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function sealSecret(pepper: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(pepper), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function openSecret(pepper: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('unreadable sealed webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(pepper), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
