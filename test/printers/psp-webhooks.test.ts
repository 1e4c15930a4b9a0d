import { describe, expect, it } from 'vitest';
import { PspWebhookError, verifyPspEvent, type PspWebhookErrorCode } from '../../src/printers/psp-webhooks';
import { signPspEvent } from '../support/psp-events';
import { WebhookSigner, generateWebhookSecret } from '../../src/printers/standard-webhooks';
import { webhookSecretProblem } from '../../src/domain/webhook-secret';

const SECRET = `whsec_${Buffer.from('psp-events-test-secret-of-32-byt').toString('base64')}`;
const NOW = new Date('2026-11-21T12:00:00Z');
const NOW_S = NOW.getTime() / 1000;

function signed(event: unknown, options: { secret?: string; timestamp?: number; id?: string } = {}) {
  const rawBody = typeof event === 'string' ? event : JSON.stringify(event);
  const headers: Record<string, string> = signPspEvent({
    secret: options.secret ?? SECRET,
    id: options.id ?? 'evt_1',
    timestamp: options.timestamp ?? NOW_S,
    body: rawBody,
  });
  return { headers, rawBody };
}

function failure(run: () => unknown): { code: PspWebhookErrorCode; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PspWebhookError);
    return { code: (error as PspWebhookError).code, message: (error as Error).message };
  }
  throw new Error('expected verifyPspEvent to throw');
}

describe('Standard Webhooks signing', () => {
  it('reproduces the published Standard Webhooks test vector', () => {
    const signer = new WebhookSigner('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(signer.signature('msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('says what is wrong with a secret, and makes good ones', () => {
    expect(webhookSecretProblem('hunter2')).toMatch(/whsec_/);
    expect(webhookSecretProblem('whsec_c2hvcnQ=')).toMatch(/at least 16 bytes/);
    expect(webhookSecretProblem(SECRET)).toBeNull();
    const fresh = generateWebhookSecret();
    expect(fresh).toMatch(/^whsec_/);
    expect(webhookSecretProblem(fresh)).toBeNull();
    expect(generateWebhookSecret()).not.toBe(fresh);
  });
});

describe('verifyPspEvent', () => {
  const EVENT = {
    jobId: 'acme-42',
    status: 'delivering',
    trackingUrl: 'https://carrier.example/t/42',
    occurredAt: '2026-11-21T12:58:00+01:00',
  };

  it('accepts a correctly signed event and returns its fields', () => {
    const { headers, rawBody } = signed(EVENT, { id: 'evt_abc' });

    expect(verifyPspEvent({ secret: SECRET, headers, rawBody, now: NOW })).toEqual({
      webhookId: 'evt_abc',
      timestamp: NOW_S,
      jobId: 'acme-42',
      status: 'delivering',
      trackingUrl: 'https://carrier.example/t/42',
      occurredAt: '2026-11-21T11:58:00.000Z',
    });
  });

  it('accepts a Buffer body, header names in any case, and a match among several signatures', () => {
    const { headers, rawBody } = signed({ jobId: 'acme-42', status: 'printing' });
    const other = new WebhookSigner(generateWebhookSecret()).signature('evt_1', NOW_S, rawBody);
    const mixed = {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
      'webhook-signature': `v2,ignored ${other} ${headers['webhook-signature']}`,
    };

    expect(verifyPspEvent({ secret: SECRET, headers: mixed, rawBody: Buffer.from(rawBody), now: NOW })).toMatchObject({
      status: 'printing',
    });
  });

  it('refuses a tampered body', () => {
    const { headers, rawBody } = signed(EVENT);
    const tampered = rawBody.replace('delivering', 'complete');

    expect(failure(() => verifyPspEvent({ secret: SECRET, headers, rawBody: tampered, now: NOW })).code).toBe(
      'BAD_SIGNATURE',
    );
  });

  it('refuses an event signed with another secret', () => {
    const { headers, rawBody } = signed(EVENT, { secret: generateWebhookSecret() });

    const { code, message } = failure(() => verifyPspEvent({ secret: SECRET, headers, rawBody, now: NOW }));
    expect(code).toBe('BAD_SIGNATURE');
    expect(message).toContain('webhook-signature does not match');
  });

  it('counts only v1 signatures', () => {
    const { headers, rawBody } = signed(EVENT);
    const value = headers['webhook-signature'].slice('v1,'.length);
    const relabelled = { ...headers, 'webhook-signature': `v1a,${value} v2,${value}` };

    expect(failure(() => verifyPspEvent({ secret: SECRET, headers: relabelled, rawBody, now: NOW })).code).toBe(
      'BAD_SIGNATURE',
    );
  });

  it('refuses a signature moved to another id or timestamp', () => {
    const { headers, rawBody } = signed(EVENT);
    expect(
      failure(() =>
        verifyPspEvent({ secret: SECRET, headers: { ...headers, 'webhook-id': 'evt_2' }, rawBody, now: NOW }),
      ).code,
    ).toBe('BAD_SIGNATURE');
    expect(
      failure(() =>
        verifyPspEvent({
          secret: SECRET,
          headers: { ...headers, 'webhook-timestamp': String(NOW_S + 1) },
          rawBody,
          now: NOW,
        }),
      ).code,
    ).toBe('BAD_SIGNATURE');
  });

  it('refuses unsigned events, naming the missing header', () => {
    const { headers, rawBody } = signed(EVENT);
    const { 'webhook-signature': _signature, ...unsigned } = headers;

    const { code, message } = failure(() => verifyPspEvent({ secret: SECRET, headers: unsigned, rawBody, now: NOW }));
    expect(code).toBe('BAD_SIGNATURE');
    expect(message).toContain('webhook-signature');
    expect(
      failure(() =>
        verifyPspEvent({
          secret: SECRET,
          headers: { ...headers, 'webhook-timestamp': 'yesterday' },
          rawBody,
          now: NOW,
        }),
      ).code,
    ).toBe('BAD_SIGNATURE');
  });

  it('refuses an authentic event whose timestamp is outside the tolerance, either way', () => {
    const old = signed(EVENT, { timestamp: NOW_S - 301 });
    const { code, message } = failure(() => verifyPspEvent({ secret: SECRET, ...old, now: NOW }));
    expect(code).toBe('STALE_TIMESTAMP');
    expect(message).toContain('301 s in the past');

    const future = signed(EVENT, { timestamp: NOW_S + 400 });
    expect(failure(() => verifyPspEvent({ secret: SECRET, ...future, now: NOW })).code).toBe('STALE_TIMESTAMP');

    const edge = signed(EVENT, { timestamp: NOW_S - 300 });
    expect(verifyPspEvent({ secret: SECRET, ...edge, now: NOW }).jobId).toBe('acme-42');
    expect(failure(() => verifyPspEvent({ secret: SECRET, ...edge, now: NOW, toleranceSeconds: 60 })).code).toBe(
      'STALE_TIMESTAMP',
    );
  });

  it('checks the signature before the timestamp, so a forger learns nothing about clocks', () => {
    const forged = signed(EVENT, { timestamp: NOW_S - 3600, secret: generateWebhookSecret() });
    expect(failure(() => verifyPspEvent({ secret: SECRET, ...forged, now: NOW })).code).toBe('BAD_SIGNATURE');
  });

  it('refuses statuses a printer may not report, naming the allowed ones', () => {
    const unknown = failure(() =>
      verifyPspEvent({ secret: SECRET, ...signed({ jobId: 'acme-42', status: 'shipped' }), now: NOW }),
    );
    expect(unknown.code).toBe('MALFORMED_EVENT');
    expect(unknown.message).toContain('"shipped"');
    expect(unknown.message).toContain('ready for collection');

    for (const status of ['paid', 'cancelled', 'refunded', 'sending printjob', 'deleted']) {
      const refused = failure(() =>
        verifyPspEvent({ secret: SECRET, ...signed({ jobId: 'acme-42', status }), now: NOW }),
      );
      expect(refused.code, status).toBe('MALFORMED_EVENT');
    }
    for (const status of ['accepted', 'on hold', 'undelivered', 'expired', 'collected']) {
      expect(verifyPspEvent({ secret: SECRET, ...signed({ jobId: 'acme-42', status }), now: NOW }).status).toBe(status);
    }
  });

  it.each([
    ['not JSON', 'delivering!', /not JSON/],
    ['an array', [EVENT], /JSON object/],
    ['no jobId', { status: 'printing' }, /jobId/],
    ['an empty jobId', { jobId: ' ', status: 'printing' }, /jobId/],
    ['a non-web tracking URL', { jobId: 'a', status: 'delivering', trackingUrl: 'javascript:alert(1)' }, /trackingUrl/],
    [
      'a tracking URL with credentials',
      { jobId: 'a', status: 'delivering', trackingUrl: 'https://user:pw@carrier.example/' },
      /trackingUrl/,
    ],
    ['a date without time zone', { jobId: 'a', status: 'printed', occurredAt: '2026-11-21 12:00' }, /occurredAt/],
    ['an impossible date', { jobId: 'a', status: 'printed', occurredAt: '2026-13-45T12:00:00Z' }, /occurredAt/],
  ])('refuses a signed body with %s as MALFORMED_EVENT', (_what, body, message) => {
    const { code, message: text } = failure(() => verifyPspEvent({ secret: SECRET, ...signed(body), now: NOW }));
    expect(code).toBe('MALFORMED_EVENT');
    expect(text).toMatch(message);
  });
});
