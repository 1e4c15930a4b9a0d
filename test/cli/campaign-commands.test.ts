import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, serviceHeader } from '../support/http';
import { startPhotoServer, type PhotoServer } from '../support/photo-server';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { campaignIdIn } from '../support/campaigns';
import { waitFor } from '../support/wait';
import { EventRecord } from '../../src/db/entities';

const run = promisify(execFile);

describe('operator CLI: webhooks and campaigns', () => {
  let api: TestService;
  let files: PhotoServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', WEBHOOK_RETRY_SPACING: '100ms' });
    const csv =
      'reference,userId,sku,psp,marketId\ncli-1,cli-user-1,PB-HC-A4-P,local,0\ncli-2,cli-user-2,PB-HC-A4-P,local,0\n';
    files = await startPhotoServer({ '/cli.csv': { body: Buffer.from(csv), type: 'text/csv' } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await api?.stop();
    await files?.close();
    await receiver?.close();
  });

  /** The README's commands, against the test database and DATA_DIR (so the same pepper). */
  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run('npm', ['run', '--silent', 'cli', '--', ...args], {
        env: { ...process.env, DATABASE_URL: api.databaseUrl, DATA_DIR: api.config.dataDir, LOG_LEVEL: 'warn' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  // Each command is a new `npm run cli` process (npm, tsx, a database connection): seconds each on
  // a busy machine, so these tests get more time than the default; nothing here is timed.
  let client: Awaited<ReturnType<TestService['createClient']>>;
  let issued: { url: string; secret: string };

  it('sets a webhook and prints {"url","secret"} once, sealed at rest; show and set again keep the secret', async () => {
    client = await api.createClient('CLI campaign shop');
    const url = receiver.url('/cli');
    const set = await cli('webhook', 'set', '--client', client.clientId, '--url', url, '--env', 'dev', '--json');
    expect(set.code).toBe(0);
    issued = JSON.parse(set.stdout);
    expect(Object.keys(issued)).toEqual(['url', 'secret']);
    expect(issued.url).toBe(url);
    expect(issued.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Sealed at rest: the secret is nowhere in the table.
    const orm = await api.orm();
    const rows = await orm.em
      .getConnection()
      .execute('SELECT * FROM webhook_endpoints WHERE client_id = ?', [client.clientId]);
    expect(JSON.stringify(rows)).not.toContain(issued.secret.slice('whsec_'.length, 20));

    const again = JSON.parse((await cli('webhook', 'set', '--client', client.clientId, '--url', url, '--json')).stdout);
    expect(again).toEqual({ url, secret: null });
    expect(JSON.parse((await cli('webhook', 'show', '--client', client.clientId, '--json')).stdout)).toMatchObject({
      url,
      env: 'dev',
    });
    expect(
      JSON.parse((await cli('webhook', 'show', '--client', client.clientId, '--env', 'prod', '--json')).stdout),
    ).toBeNull();
  }, 180_000);

  it('watches a campaign to its end and lists it; the printed secret signs its deliveries; rotate-secret replaces it', async () => {
    const url = receiver.url('/cli');

    const auth = serviceHeader(client.credentials.dev);
    const started = await post(api.url, '/v2/campaign/auto-generate', { csvUrl: files.url('/cli.csv') }, auth);
    const campaignId = campaignIdIn(started.body.message);
    const watched = await cli('campaign', 'watch', campaignId);
    expect(watched.code).toBe(0);
    expect(watched.stdout).toContain(`${campaignId} completed: rows 2, generated 2, notified 2, failed 0`);
    await waitFor(async () => receiver.received.length >= 2, 5_000, 'two deliveries');
    for (const request of receiver.received)
      expect(new Webhook(issued.secret).verify(request.raw, request.headers)).toEqual(request.body);

    const listed = JSON.parse((await cli('campaign', 'list', '--client', client.clientId, '--json')).stdout);
    expect(listed).toEqual([
      expect.objectContaining({
        id: campaignId,
        status: 'completed',
        counts: expect.objectContaining({ rows: 2, notified: 2 }),
      }),
    ]);

    const rotated = JSON.parse((await cli('webhook', 'rotate-secret', '--client', client.clientId, '--json')).stdout);
    expect(rotated.url).toBe(url);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(issued.secret);
    // The replaced secret signs beside it for WEBHOOK_SECRET_OVERLAP (24 h by default).
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
  }, 180_000);

  it('shows a webhook disabled for failing, and enables it again', async () => {
    const shop = await api.createClient('CLI disabled shop');
    expect((await cli('webhook', 'set', '--client', shop.clientId, '--url', receiver.url('/off'))).code).toBe(0);
    // Disabled as a failing streak leaves it (the streak itself: test/services/webhooks/webhook-resilience.test.ts).
    await (await api.orm()).em
      .getConnection()
      .execute(
        "UPDATE webhook_endpoints SET failing_since = now() - interval '5 days', disabled_at = now(), disabled_reason = 'HTTP 503' WHERE client_id = ?",
        [shop.clientId],
      );
    const shown = JSON.parse((await cli('webhook', 'show', '--client', shop.clientId, '--json')).stdout);
    expect(shown).toMatchObject({ disabledAt: expect.any(String), disabledReason: 'HTTP 503' });
    expect((await cli('webhook', 'show', '--client', shop.clientId)).stdout).toContain('DISABLED at');
    const enabled = await cli('webhook', 'enable', '--client', shop.clientId, '--json');
    expect(enabled.code).toBe(0);
    expect(JSON.parse(enabled.stdout)).toEqual({ url: receiver.url('/off'), env: 'dev', disabledAt: null });
    expect(JSON.parse((await cli('webhook', 'show', '--client', shop.clientId, '--json')).stdout)).toMatchObject({
      disabledAt: null,
      disabledReason: null,
    });
  }, 180_000);

  it('explains its usage when an option is missing, and names an unknown client', async () => {
    const missing = await cli('webhook', 'set', '--client', '00000000-0000-4000-8000-000000000000');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--url');
    const unknown = await cli(
      'webhook',
      'set',
      '--client',
      '00000000-0000-4000-8000-000000000000',
      '--url',
      'https://shop.example.com/hook',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOT_FOUND');
  }, 120_000);

  it('chooses event types with --events, queues a webhook.test the running service sends, and lists the events', async () => {
    const shop = await api.createClient('CLI events shop');
    // A receiver of its own: the campaign tests check every request theirs received.
    const own = await startWebhookReceiver();
    const url = own.url('/cli-events');
    const set = await cli(
      'webhook',
      'set',
      '--client',
      shop.clientId,
      '--url',
      url,
      '--events',
      'order.line.shipped,order.cancelled',
      '--json',
    );
    expect(set.code, set.stderr).toBe(0);
    const { secret, eventTypes } = JSON.parse(set.stdout);
    expect(eventTypes).toEqual(['order.line.shipped', 'order.cancelled']);
    expect(JSON.parse((await cli('webhook', 'show', '--client', shop.clientId, '--json')).stdout).eventTypes).toEqual([
      'order.line.shipped',
      'order.cancelled',
    ]);
    const bad = await cli('webhook', 'set', '--client', shop.clientId, '--url', url, '--events', 'order.shipped');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('types[0]');

    const queued = await cli('webhook', 'test', '--client', shop.clientId, '--json');
    expect(queued.code, queued.stderr).toBe(0);
    const { eventId } = JSON.parse(queued.stdout);
    expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);
    // The CLI only writes the event; the service's outbox relay sends it, signed, despite the type choice.
    await waitFor(async () => own.received.length > 0, 15_000, 'the test event');
    const [received] = own.received;
    expect(new Webhook(secret).verify(received.raw, received.headers)).toMatchObject({
      id: eventId,
      type: 'webhook.test',
    });
    const listed = JSON.parse(
      (await cli('webhook', 'events', '--client', shop.clientId, '--limit', '5', '--json')).stdout,
    );
    expect(listed.map((e: { id: string; type: string }) => [e.id, e.type])).toEqual([[eventId, 'webhook.test']]);
    expect((await cli('webhook', 'test', '--client', shop.clientId, '--env', 'prod')).stderr).toContain(
      'WEBHOOK_NOT_CONFIGURED',
    );
    await own.close();
  }, 180_000);

  it('prints an order id carrying terminal control sequences as text: no cleared screen, no fake line (text and JSON)', async () => {
    const shop = await api.createClient('Shop with a hostile order id');
    // ESC[2J clears the screen, ESC[H homes the cursor; CR LF and C1 CSI (0x9b) start a line of the attacker's.
    const hostile = 'o-1\u001b[2J\u001b[H\r\n2026-01-01T00:00:00.000Z  evt_fake  order.line.shipped\u009b31m\u202e';
    const orm = await api.orm();
    const em = orm.em.fork();
    em.create(EventRecord, {
      client: shop.clientId,
      env: 'dev',
      eventId: `evt_${'0'.repeat(32)}`,
      type: 'order.line.shipped',
      orderId: hostile,
      data: { orderId: hostile },
      occurredAt: new Date(),
    });
    await em.flush();

    const text = await cli('webhook', 'events', '--client', shop.clientId);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trim().split('\n')).toHaveLength(1);
    expect(text.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text.stdout).toContain('o-1\\x1b[2J\\x1b[H\\x0d\\x0a2026-01-01T00:00:00.000Z  evt_fake');
    expect(text.stdout).toContain('\\x9b31m\\u202e');

    const json = await cli('webhook', 'events', '--client', shop.clientId, '--json');
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(JSON.parse(json.stdout)[0].data.orderId).toBe(hostile);
  });
});
