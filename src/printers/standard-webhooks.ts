import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { webhookSecretKey, webhookSecretProblem } from '../domain/webhook-secret';

/**
 * Standard Webhooks (https://www.standardwebhooks.com) signing, shared by what we send to printers
 * and what printers send us: `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<ts>.<body>")>`,
 * where the key is the base64 part of a `whsec_<base64>` secret. The HMAC itself is the maintained
 * `standardwebhooks` package's; header parsing, clock tolerance and error reporting are ours so
 * that callers can tell a bad signature from a stale timestamp and inject the clock.
 */

/** A type, not an interface, so it is assignable to `Record<string, string>` header maps. */
export type StandardWebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** A new secret in the form printers and we exchange: `whsec_` + 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The HMAC of one secret; building it checks the secret once. */
export class WebhookSigner {
  private readonly webhook: Webhook;

  constructor(secret: string, what = 'webhook secret') {
    const problem = webhookSecretProblem(secret);
    if (problem) throw new Error(`${what} ${problem}`);
    this.webhook = new Webhook(Buffer.from(webhookSecretKey(secret), 'base64'), { format: 'raw' });
  }

  /** The `v1,<base64>` signature of one message. */
  signature(id: string, timestampSeconds: number, body: string | Buffer): string {
    const payload = typeof body === 'string' ? body : body.toString('utf8');
    return this.webhook.sign(id, new Date(timestampSeconds * 1000), payload);
  }

  headers(id: string, timestampSeconds: number, body: string | Buffer): StandardWebhookHeaders {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': this.signature(id, timestampSeconds, body),
    };
  }

  /**
   * Whether any of the space-separated signatures of a `webhook-signature` header is our `v1`
   * signature of the message. Compared in constant time; other versions are skipped.
   */
  matches(signatureHeader: string, id: string, timestampSeconds: number, body: string | Buffer): boolean {
    const expected = Buffer.from(this.signature(id, timestampSeconds, body).slice('v1,'.length));
    let found = false;
    for (const candidate of signatureHeader.split(' ')) {
      const comma = candidate.indexOf(',');
      if (comma < 0 || candidate.slice(0, comma) !== 'v1') continue;
      const given = Buffer.from(candidate.slice(comma + 1));
      // No early exit: every candidate costs the same whether or not an earlier one matched.
      if (given.length === expected.length && timingSafeEqual(given, expected)) found = true;
    }
    return found;
  }
}

export function unixSeconds(at: Date = new Date()): number {
  return Math.floor(at.getTime() / 1000);
}

export type WebhookVerificationCode = 'BAD_SIGNATURE' | 'STALE_TIMESTAMP';

export class WebhookVerificationFailure extends Error {
  readonly code: WebhookVerificationCode;

  constructor(code: WebhookVerificationCode, message: string) {
    super(message);
    this.name = 'WebhookVerificationFailure';
    this.code = code;
  }
}

export interface VerifyStandardWebhookOptions {
  /** The sender's `whsec_<base64>` secret. */
  secret: string;
  /** Request headers; names in any case (Node gives them lower-cased). */
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: the signature covers these bytes. */
  rawBody: string | Buffer;
  now?: Date;
  /** How far `webhook-timestamp` may be from now, either way. Default 300 s. */
  toleranceSeconds?: number;
  /** How the secret is named in an error about it (it is a configuration problem, not the sender's). */
  secretName?: string;
}

/**
 * Checks one signed request and returns its id and timestamp. The signature is checked first
 * (constant time; any of several space-separated `v1,` signatures may match), so only an
 * authentic sender ever learns that its clock is off; then the timestamp, either way of now.
 * Throws WebhookVerificationFailure; an unusable secret throws a plain Error (our configuration).
 */
export function verifyStandardWebhook(options: VerifyStandardWebhookOptions): { id: string; timestamp: number } {
  const { rawBody, toleranceSeconds = 300 } = options;
  const id = single(options.headers, 'webhook-id');
  const timestampHeader = single(options.headers, 'webhook-timestamp');
  const signatures = joined(options.headers, 'webhook-signature');
  if (!id || !timestampHeader || !signatures) {
    const missing = [!id && 'webhook-id', !timestampHeader && 'webhook-timestamp', !signatures && 'webhook-signature'].filter(Boolean);
    throw new WebhookVerificationFailure('BAD_SIGNATURE', `the request is not signed: missing (or repeated) ${missing.join(', ')} header`);
  }
  if (!/^\d{1,12}$/.test(timestampHeader)) {
    throw new WebhookVerificationFailure('BAD_SIGNATURE', 'webhook-timestamp must be a Unix time in seconds');
  }
  const timestamp = Number(timestampHeader);

  const signer = new WebhookSigner(options.secret, options.secretName);
  if (!signer.matches(signatures, id, timestamp, rawBody)) {
    throw new WebhookVerificationFailure('BAD_SIGNATURE', 'webhook-signature does not match the request and the secret configured for its sender');
  }

  const skew = unixSeconds(options.now ?? new Date()) - timestamp;
  if (Math.abs(skew) > toleranceSeconds) {
    const when = skew > 0 ? `${skew} s in the past` : `${-skew} s in the future`;
    throw new WebhookVerificationFailure('STALE_TIMESTAMP', `webhook-timestamp is ${when}; requests are accepted within ${toleranceSeconds} s of the receiver's clock`);
  }
  return { id, timestamp };
}

/** A header's value, several occurrences joined by spaces (how webhook-signature lists signatures). */
function joined(headers: VerifyStandardWebhookOptions['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    const text = (Array.isArray(value) ? value.join(' ') : value).trim();
    return text === '' ? undefined : text;
  }
  return undefined;
}

/** A header that must occur once. */
function single(headers: VerifyStandardWebhookOptions['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (Array.isArray(value) && value.length !== 1) return undefined;
    const text = (Array.isArray(value) ? value[0] : value).trim();
    return text === '' ? undefined : text;
  }
  return undefined;
}
