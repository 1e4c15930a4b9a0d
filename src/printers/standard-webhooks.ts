import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { webhookSecretKey, webhookSecretProblem } from '../domain/webhook-secret';

/**
 * Standard Webhooks (https://www.standardwebhooks.com), shared by what we send to printers and
 * what printers send us. Signing and signature checks are the `standardwebhooks` package's
 * `Webhook`; ours are only what it does not do: name the missing header, check the secret with a
 * message that says what is wrong, and check the timestamp after the signature (so only an
 * authentic sender learns that its clock is off) against an injectable clock and tolerance.
 */

/** A type, not an interface, so it is assignable to `Record<string, string>` header maps. */
export type StandardWebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

const HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** A new secret in the form printers and we exchange: `whsec_` + 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The package's `Webhook` for one secret; building it checks the secret once. */
export class WebhookSigner {
  private readonly webhook: Webhook;

  constructor(secret: string, what = 'webhook secret') {
    const problem = webhookSecretProblem(secret);
    if (problem) throw new Error(`${what} ${problem}`);
    this.webhook = new Webhook(webhookSecretKey(secret));
    // The package's verify() checks the timestamp against Date.now() and its fixed 5 minutes
    // before the signature; we check it after, in verifyStandardWebhook. Its signature check
    // stays the package's; only the clock check of this instance is turned off.
    Object.defineProperty(this.webhook, 'verifyTimestamp', {
      value: (header: string) => new Date(Number(header) * 1000),
    });
  }

  /** The `v1,<base64>` signature of one message. */
  signature(id: string, timestampSeconds: number, body: string | Buffer): string {
    return this.webhook.sign(id, new Date(timestampSeconds * 1000), body);
  }

  headers(id: string, timestampSeconds: number, body: string | Buffer): StandardWebhookHeaders {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': this.signature(id, timestampSeconds, body),
    };
  }

  /** Whether one of the header's `v1` signatures signs this message (compared in constant time). */
  verifies(headers: StandardWebhookHeaders, body: string | Buffer): boolean {
    try {
      this.webhook.verify(body, headers, { jsonParse: false });
      return true;
    } catch (error) {
      if (error instanceof WebhookVerificationError) return false;
      throw error;
    }
  }
}

if (typeof (Webhook.prototype as unknown as Record<string, unknown>).verifyTimestamp !== 'function') {
  throw new Error('standardwebhooks no longer has Webhook.verifyTimestamp: review WebhookSigner before upgrading it');
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
 * Checks one signed request and returns its id and timestamp: the signature first, then the
 * timestamp, either way of now. Throws WebhookVerificationFailure; an unusable secret throws a
 * plain Error (our configuration).
 */
export function verifyStandardWebhook(options: VerifyStandardWebhookOptions): { id: string; timestamp: number } {
  const { toleranceSeconds = 300 } = options;
  const signed = signedHeaders(options.headers);
  const missing = HEADERS.filter((name) => !signed[name]);
  if (missing.length > 0) {
    throw new WebhookVerificationFailure(
      'BAD_SIGNATURE',
      `the request is not signed: missing ${missing.join(', ')} header`,
    );
  }
  if (!/^\d{1,12}$/.test(signed['webhook-timestamp'])) {
    throw new WebhookVerificationFailure('BAD_SIGNATURE', 'webhook-timestamp must be a Unix time in seconds');
  }
  if (!new WebhookSigner(options.secret, options.secretName).verifies(signed, options.rawBody)) {
    throw new WebhookVerificationFailure(
      'BAD_SIGNATURE',
      'webhook-signature does not match the request and the secret configured for its sender',
    );
  }

  const timestamp = Number(signed['webhook-timestamp']);
  const skew = unixSeconds(options.now ?? new Date()) - timestamp;
  if (Math.abs(skew) > toleranceSeconds) {
    const when = skew > 0 ? `${skew} s in the past` : `${-skew} s in the future`;
    throw new WebhookVerificationFailure(
      'STALE_TIMESTAMP',
      `webhook-timestamp is ${when}; requests are accepted within ${toleranceSeconds} s of the receiver's clock`,
    );
  }
  return { id: signed['webhook-id'], timestamp };
}

/** The three headers by lower-case name, trimmed; several occurrences joined by spaces (as signatures are listed). */
function signedHeaders(headers: VerifyStandardWebhookOptions['headers']): StandardWebhookHeaders {
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    const name = key.toLowerCase();
    if (value !== undefined && (HEADERS as readonly string[]).includes(name)) {
      found[name] = (Array.isArray(value) ? value.join(' ') : value).trim();
    }
  }
  return found as StandardWebhookHeaders;
}
