import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { startWebhookReceiver, type WebhookReceiver, type ReceivedWebhook } from '../../support/webhook-receiver';
import { campaignIdIn, finishedCampaign, graphql, type CampaignState } from '../../support/campaigns';
import { waitFor } from '../../support/wait';
import {
  CampaignDocument,
  ProjectDocument,
  ReplayWebhookDocument,
  SetWebhookDocument,
  WebhookDeliveryDocument,
} from '../../support/generated/graphql';

const HEADER = 'reference,email,userId,sku,psp,marketId,language,photos,custom.title,notes';

describe('campaigns: a CSV becomes one project per row, each announced by a signed webhook', () => {
  let api: TestService;
  let files: PhotoServer;
  /** CSV files and photos, by path; the server reads this map on every request. */
  const served: Record<string, { body: Buffer; type?: string }> = {};

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', WEBHOOK_RETRY_SPACING: '100ms' });
    served['/beach.jpg'] = { body: await makePhoto({ width: 800, height: 600 }) };
    served['/city.jpg'] = { body: await makePhoto({ width: 600, height: 800, colour: '#c0392b' }) };
    files = await startPhotoServer(served);
  });
  afterAll(async () => {
    await api?.stop();
    await files?.close();
  });

  const serveCsv = (path: string, text: string) => {
    served[path] = { body: Buffer.from(text, 'utf8'), type: 'text/csv; charset=utf-8' };
    return files.url(path);
  };

  /** A client of its own with its webhook at `receiver`; returns its auth header and signing secret. */
  async function shopWithWebhook(receiver: WebhookReceiver, path = '/hook') {
    const client = await api.createClient('Campaign shop');
    const auth = serviceHeader(client.credentials.dev);
    const { data } = await graphql(api.url, auth, SetWebhookDocument, { url: receiver.url(path) });
    expect(data.setWebhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    return { client, auth, secret: data.setWebhook.secret! };
  }

  async function runCampaign(auth: Record<string, string>, csvUrl: string): Promise<CampaignState> {
    const started = await post(api.url, '/v2/campaign/auto-generate', { csvUrl }, auth);
    expect(started.status).toBe(200);
    expect(started.body.message).toContain(csvUrl);
    return finishedCampaign(api.url, auth, campaignIdIn(started.body.message));
  }

  const verified = (secret: string, request: ReceivedWebhook) =>
    new Webhook(secret).verify(request.raw, request.headers);
  const rowsOf = (campaign: CampaignState) => campaign.rows.edges.map((edge) => edge.node);

  it('generates the good rows, reports bad rows with their line and reason, and notifies only the good ones, signed', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { auth, secret, client } = await shopWithWebhook(receiver);
      const csvUrl = serveCsv(
        '/customers.csv',
        `${[
          HEADER,
          `r-1,ann@example.com,,PB-HC-A4-P,local,0,de,${files.url('/beach.jpg')}|${files.url('/city.jpg')},"Summer, 2024",`, // 2
          `r-2,,customer-2,PB-HC-A4-P,local,0,,,,`, // 3
          `,bob@example.com,,PB-HC-A4-P,local,0,,,,no reference`, // 4
          `r-1,carl@example.com,,PB-HC-A4-P,local,0,,,,repeats r-1`, // 5
          `r-3,dora@example.com,dora,PB-HC-A4-P,local,0,,,,both identities`, // 6
          `r-4,emil@example.com,,NO-SUCH-SKU,local,0,,,,unknown sku`, // 7
          `r-5,fay@example.com,,PB-HC-A4-P,local,0,,,"A title`, // 8
          `over two lines",`, // 9
          `r-6,gus@example.com,,PB-HC-A4-P,local,999,,,,unknown market`, // 10
          `r-7,,,PB-HC-A4-P,local,0,,,,no identity`, // 11
        ].join('\n')}\n`,
      );
      const campaign = await runCampaign(auth, csvUrl);

      expect(campaign.status).toBe('completed');
      expect(campaign.counts).toEqual({ rows: 9, generated: 3, notified: 3, failed: 6, invalid: 6, duplicate: 0 });
      const rows = rowsOf(campaign);
      expect(rows.filter((r) => r.state === 'notified').map((r) => [r.line, r.reference])).toEqual([
        [2, 'r-1'],
        [3, 'r-2'],
        [8, 'r-5'],
      ]);
      const invalid = Object.fromEntries(rows.filter((r) => r.state === 'invalid').map((r) => [r.line, r.reason]));
      expect(Object.keys(invalid).map(Number)).toEqual([4, 5, 6, 7, 10, 11]);
      expect(invalid[4]).toMatch(/^reference: is required/);
      expect(invalid[5]).toMatch(/reference: "r-1" repeats the reference of line 2/);
      expect(invalid[6]).toMatch(/either email or userId, not both/);
      expect(invalid[7]).toMatch(/^sku: "NO-SUCH-SKU" is not a sku/);
      expect(invalid[10]).toMatch(/^marketId: "999" is not a market/);
      expect(invalid[11]).toMatch(/one of them is required/);

      // Only the good rows were announced, each once, each signed with the client's secret.
      await waitFor(async () => receiver.received.length >= 3, 5_000, 'three deliveries');
      expect(receiver.received.map((r) => r.body.reference).sort()).toEqual(['r-1', 'r-2', 'r-5']);
      for (const request of receiver.received) {
        expect(verified(secret, request)).toEqual(request.body);
        expect(request.headers['content-type']).toBe('application/json');
        const { body } = request;
        const url = new URL(body.url);
        const row = rows.find((r) => r.reference === body.reference)!;
        expect(body).toEqual({
          url: body.url,
          reference: row.reference,
          protocol: url.protocol,
          hostname: url.hostname,
          pathname: url.pathname,
          query: {
            id: row.projectId,
            // The link's own key (docs/api.md, Editor URL): the editor link opens the book with it.
            editorKey: url.searchParams.get('editorKey'),
            clientId: client.clientId,
            clientName: 'Campaign shop',
            user: url.searchParams.get('user'),
            product: true,
            marketId: '0',
            language: body.reference === 'r-1' ? 'de' : 'en',
            sku: 'PB-HC-A4-P',
            psp: 'local',
          },
        });
        expect(url.searchParams.get('id')).toBe(row.projectId);
        expect(url.searchParams.get('editorKey')).toMatch(/^[A-Za-z0-9_-]{32}$/);
        const { data } = await graphql(api.url, auth, ProjectDocument, { id: row.projectId! });
        expect(data.project.status.project).toBe('editable');
      }
      expect(receiver.received.find((r) => r.body.reference === 'r-1')!.body.query.user).toBe('ann@example.com');
      expect(receiver.received.find((r) => r.body.reference === 'r-2')!.body.query.user).toBe('customer-2');

      // The row's photos and custom values went through generate like any /v2/generate call.
      const r1 = rows.find((r) => r.reference === 'r-1')!;
      const { data } = await graphql(api.url, auth, ProjectDocument, { id: r1.projectId! });
      expect(data.project.photos.map((p) => p.status)).toEqual(['idle', 'idle']);
      expect(data.project.cover?.title).toBe('Summer, 2024');

      // Every delivery and its one attempt are on record.
      expect(campaign.deliveries.edges).toHaveLength(3);
      for (const { node } of campaign.deliveries.edges) {
        expect(node.status).toBe('delivered');
        expect(node.attempts).toHaveLength(1);
        expect(node.attempts[0]).toMatchObject({ statusCode: 200, error: null });
      }
    } finally {
      await receiver.close();
    }
  });

  it('reads UTF-8 with BOM and CRLF, quoted commas, quotes and line breaks, and counts lines from the header', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { auth, secret } = await shopWithWebhook(receiver);
      const text = [
        'reference,email,sku,psp,marketId,custom.title',
        '"r,1 ""quoted""",ann@example.com,PB-HC-A4-P,local,0,"Line one', // 2-4
        '',
        'line three"',
        '', // 5: blank, skipped
        'r-2,not-an-email,PB-HC-A4-P,local,0,', // 6
        '"r-3",bob@example.com,PB-HC-A4-P,local,0,"Ünïcödé, ""ok"""', // 7
      ].join('\r\n');
      const campaign = await runCampaign(auth, serveCsv('/bom.csv', `\uFEFF${text}\r\n`));

      expect(campaign.status).toBe('completed');
      expect(rowsOf(campaign).map((r) => [r.line, r.reference, r.state])).toEqual([
        [2, 'r,1 "quoted"', 'notified'],
        [6, 'r-2', 'invalid'],
        [7, 'r-3', 'notified'],
      ]);
      expect(rowsOf(campaign)[1].reason).toMatch(/^email: /);
      await waitFor(async () => receiver.received.length >= 2, 5_000, 'two deliveries');
      expect(receiver.received.map((r) => r.body.reference).sort()).toEqual(['r,1 "quoted"', 'r-3']);
      for (const request of receiver.received) expect(verified(secret, request)).toEqual(request.body);
      const r3 = rowsOf(campaign)[2];
      const { data } = await graphql(api.url, auth, ProjectDocument, { id: r3.projectId! });
      expect(data.project.cover?.title).toBe('Ünïcödé, "ok"');
    } finally {
      await receiver.close();
    }
  });

  it('retries a receiver that fails its first call, and delivers each reference exactly once', async () => {
    const receiver = await startWebhookReceiver((_path, nth) => (nth === 1 ? 500 : 200));
    try {
      const { auth, secret } = await shopWithWebhook(receiver);
      const csv = `${HEADER}\nf-1,a@example.com,,PB-HC-A4-P,local,0,,,,\nf-2,b@example.com,,PB-HC-A4-P,local,0,,,,\nf-3,c@example.com,,PB-HC-A4-P,local,0,,,,\n`;
      const campaign = await runCampaign(auth, serveCsv('/flaky.csv', csv));

      expect(campaign.counts).toMatchObject({ rows: 3, generated: 3, notified: 3, failed: 0 });
      expect(receiver.received).toHaveLength(4);
      const [failed, ...rest] = receiver.received;
      const accepted = rest.map((r) => r.body.reference).sort();
      expect(accepted).toEqual(['f-1', 'f-2', 'f-3']);
      // The retry is the same event: same webhook-id, same body, a valid signature of its own.
      const retry = rest.find((r) => r.body.reference === failed.body.reference)!;
      expect(retry.headers['webhook-id']).toBe(failed.headers['webhook-id']);
      expect(retry.raw).toBe(failed.raw);
      for (const request of receiver.received) expect(verified(secret, request)).toEqual(request.body);
      const attempts = campaign.deliveries.edges.map((e) => e.node.attempts.map((a) => a.statusCode));
      expect(attempts.sort((a, b) => b.length - a.length)).toEqual([[500, 200], [200], [200]]);
    } finally {
      await receiver.close();
    }
  });

  it('gives up after exactly 4 attempts with one webhook-id, spaced with backoff; replayWebhook sends it again', async () => {
    let accept = false;
    const receiver = await startWebhookReceiver(() => (accept ? 204 : 503));
    try {
      const { auth, secret } = await shopWithWebhook(receiver);
      const campaign = await runCampaign(
        auth,
        serveCsv('/down.csv', `${HEADER}\nd-1,a@example.com,,PB-HC-A4-P,local,0,,,,\n`),
      );

      expect(campaign.status).toBe('completed');
      expect(campaign.counts).toMatchObject({ rows: 1, generated: 1, notified: 0, failed: 1 });
      expect(rowsOf(campaign)[0]).toMatchObject({
        state: 'failed',
        reason: expect.stringContaining('failed after every attempt'),
      });
      const [delivery] = campaign.deliveries.edges.map((e) => e.node);
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts.map((a) => [a.statusCode, a.error])).toEqual(Array(4).fill([503, 'HTTP 503']));
      expect(receiver.received).toHaveLength(4);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.webhookId]));
      for (const request of receiver.received) expect(verified(secret, request)).toEqual(request.body);
      // Spacing 100 ms, then 200 ms, then 400 ms: each wait at least as long as the schedule says.
      const gaps = receiver.received.slice(1).map((r, i) => r.receivedAt - receiver.received[i].receivedAt);
      gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(100 * 2 ** i - 5));

      accept = true;
      const { data } = await graphql(api.url, auth, ReplayWebhookDocument, { deliveryId: delivery.id });
      expect(data.replayWebhook).toMatchObject({ id: delivery.id, webhookId: delivery.webhookId, status: 'pending' });
      const replayed = await finishedDelivery(auth, delivery.id);
      expect(replayed.status).toBe('delivered');
      expect(replayed.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 503, 204]);
      expect(receiver.received).toHaveLength(5);
      expect(receiver.received[4].headers['webhook-id']).toBe(delivery.webhookId);
      expect(verified(secret, receiver.received[4])).toEqual(receiver.received[0].body);
      const after = await finishedCampaign(api.url, auth, campaign.id);
      expect(after.counts).toMatchObject({ notified: 1, failed: 0 });

      const again = await graphql(api.url, auth, ReplayWebhookDocument, { deliveryId: delivery.id });
      expect(again.errors?.[0].extensions.code).toBe('DELIVERY_NOT_FAILED');
    } finally {
      await receiver.close();
    }
  });

  async function finishedDelivery(auth: Record<string, string>, id: string) {
    return waitFor(
      async () => {
        const { data } = await graphql(api.url, auth, WebhookDeliveryDocument, { id });
        return data.webhookDelivery.status !== 'pending' ? data.webhookDelivery : undefined;
      },
      20_000,
      `delivery ${id}`,
    );
  }

  it('makes no second project and no second notification when the same CSV is submitted twice, even at once', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { auth, client } = await shopWithWebhook(receiver);
      const csvUrl = serveCsv(
        '/twice.csv',
        `${HEADER}\nt-1,a@example.com,,PB-HC-A4-P,local,0,,,,\nt-2,b@example.com,,PB-HC-A4-P,local,0,,,,\n`,
      );
      const [first, second] = await Promise.all([
        post(api.url, '/v2/campaign/auto-generate', { csvUrl }, auth),
        post(api.url, '/v2/campaign/auto-generate', { csvUrl }, auth),
      ]);
      const campaigns = await Promise.all(
        [first, second].map((r) => finishedCampaign(api.url, auth, campaignIdIn(r.body.message))),
      );
      const third = await runCampaign(auth, csvUrl);

      const all = [...campaigns, third].flatMap(rowsOf);
      const owners = all.filter((r) => r.state === 'notified');
      expect(owners.map((r) => r.reference).sort()).toEqual(['t-1', 't-2']);
      const duplicates = all.filter((r) => r.state === 'duplicate');
      expect(duplicates).toHaveLength(4);
      for (const row of duplicates) {
        expect(row.projectId).toBe(owners.find((o) => o.reference === row.reference)!.projectId);
        expect(row.reason).toContain('already has project');
      }
      expect(third.counts).toMatchObject({ rows: 2, generated: 0, notified: 0, duplicate: 2 });

      const orm = await api.orm();
      const [{ count }] = await orm.em
        .getConnection()
        .execute('SELECT count(*)::int AS count FROM projects WHERE client_id = ?', [client.clientId]);
      expect(count).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 300)); // a late second notification would arrive now
      expect(receiver.received.map((r) => r.body.reference).sort()).toEqual(['t-1', 't-2']);
    } finally {
      await receiver.close();
    }
  });

  it('fails the row of a project deleted before it became editable, never notifies it, and completes the campaign', async () => {
    const receiver = await startWebhookReceiver();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowPhotos = http.createServer(async (_request, response) => {
      await held;
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(served['/beach.jpg'].body);
    });
    await new Promise<void>((resolve) => slowPhotos.listen(0, '127.0.0.1', resolve));
    try {
      const { auth } = await shopWithWebhook(receiver);
      const photo = `http://127.0.0.1:${(slowPhotos.address() as AddressInfo).port}/slow.jpg`;
      const csvUrl = serveCsv('/gone.csv', `${HEADER}\ng-1,gone@example.com,,PB-HC-A4-P,local,0,,${photo},,\n`);
      const started = await post(api.url, '/v2/campaign/auto-generate', { csvUrl }, auth);
      const id = campaignIdIn(started.body.message);
      const projectId = await waitFor(
        async () => {
          const { data } = await graphql(api.url, auth, CampaignDocument, { id });
          return data.campaign?.rows.edges[0]?.node.projectId ?? undefined;
        },
        30_000,
        'the row to have its project',
      );
      // The row names its project id before generate writes the project: wait for the project.
      await waitFor(
        async () =>
          (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).status === 200,
        30_000,
        'the project',
      );

      const deleted = await post(
        api.url,
        '/v2/project/delete',
        { user: 'gone@example.com', type: 'sync', ids: [projectId] },
        auth,
      );
      expect(deleted.status).toBe(200);
      release();

      const campaign = await finishedCampaign(api.url, auth, id);
      expect(campaign.status).toBe('completed');
      expect(campaign.counts).toMatchObject({ rows: 1, notified: 0, failed: 1 });
      expect(rowsOf(campaign)[0]).toMatchObject({
        state: 'failed',
        projectId,
        reason: expect.stringContaining('never became editable'),
      });
      expect(campaign.deliveries.edges).toHaveLength(0);
      expect(receiver.received).toHaveLength(0);
    } finally {
      release();
      slowPhotos.closeAllConnections();
      await new Promise((resolve) => slowPhotos.close(resolve));
      await receiver.close();
    }
  });

  it('fails a campaign whose file is not CSV, or lacks a required column, with the reason', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { auth } = await shopWithWebhook(receiver);
      served['/photo.csv'] = { body: await makePhoto({ width: 64, height: 64 }), type: 'text/csv' };
      const notCsv = await runCampaign(auth, files.url('/photo.csv'));
      expect(notCsv).toMatchObject({ status: 'failed', counts: { rows: 0 } });
      expect(notCsv.reason).toMatch(/not a CSV file/);

      const noPsp = await runCampaign(
        auth,
        serveCsv('/no-psp.csv', 'reference,email,sku,marketId\nr-1,a@example.com,PB-HC-A4-P,0\n'),
      );
      expect(noPsp.status).toBe('failed');
      expect(noPsp.reason).toMatch(/^missing required column psp/);
      const noIdentity = await runCampaign(
        auth,
        serveCsv('/no-identity.csv', 'reference,sku,psp,marketId\nr-1,PB-HC-A4-P,local,0\n'),
      );
      expect(noIdentity.reason).toMatch(/^missing required column email or userId/);
      const empty = await runCampaign(auth, serveCsv('/empty.csv', ''));
      expect(empty.reason).toMatch(/the file is empty/);
      const missing = await runCampaign(auth, files.url('/nowhere.csv'));
      expect(missing.reason).toMatch(/could not be downloaded: .*HTTP 404/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('answers a bad body with a 400 naming csvUrl, and refuses to start without a webhook', async () => {
    const client = await api.createClient('No webhook shop');
    const auth = serviceHeader(client.credentials.dev);
    for (const body of [{}, { csvUrl: 'ftp://example.com/x.csv' }, { csvUrl: 42 }]) {
      const response = await post(api.url, '/v2/campaign/auto-generate', body, auth);
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { path: string }) => e.path)).toContain('csvUrl');
    }
    const refused = await post(api.url, '/v2/campaign/auto-generate', { csvUrl: 'https://example.com/list.csv' }, auth);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('WEBHOOK_NOT_CONFIGURED');
    expect(
      (await post(api.url, '/v2/campaign/auto-generate', { csvUrl: 'https://example.com/list.csv' }, {})).status,
    ).toBe(401);
  });
});
