import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../../support/harness';
import { serviceHeader } from '../../support/http';
import { startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { finishedCampaign, graphql } from '../../support/campaigns';
import { waitFor } from '../../support/wait';
import {
  CampaignDocument,
  CampaignProgressDocument,
  CampaignsDocument,
  ReplayWebhookDocument,
  RotateWebhookSecretDocument,
  SetWebhookDocument,
  StartCampaignDocument,
  WebhookDeliveryDocument,
  WebhookDocument,
  type CampaignProgressSubscription,
} from '../../support/generated/graphql';

const CSV = [
  'reference,email,sku,psp,marketId',
  ...Array.from({ length: 6 }, (_, i) => `g-${i + 1},user${i + 1}@example.com,PB-HC-A4-P,local,0`),
  'g-bad,,PB-HC-A4-P,local,0',
].join('\n');

describe('GraphQL: campaigns, their progress, and the client’s own webhook', () => {
  let api: TestService;
  let files: PhotoServer;
  let receiver: WebhookReceiver;
  let shop: Record<string, string>;
  let shopProd: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', WEBHOOK_RETRY_SPACING: '100ms' });
    files = await startPhotoServer({ '/list.csv': { body: Buffer.from(CSV), type: 'text/csv' } });
    receiver = await startWebhookReceiver();
    const a = await api.createClient('Shop A');
    const b = await api.createClient('Shop B');
    shop = serviceHeader(a.credentials.dev);
    shopProd = serviceHeader(a.credentials.prod);
    other = serviceHeader(b.credentials.dev);
  });
  afterAll(async () => {
    await api?.stop();
    await files?.close();
    await receiver?.close();
  });

  it('sets the webhook (secret shown once), shows it, and rotates the secret', async () => {
    expect((await graphql(api.url, shop, WebhookDocument)).data.webhook).toBeNull();
    const first = (await graphql(api.url, shop, SetWebhookDocument, { url: receiver.url('/old') })).data.setWebhook;
    expect(first.secret).toMatch(/^whsec_/);
    const moved = (await graphql(api.url, shop, SetWebhookDocument, { url: receiver.url('/a') })).data.setWebhook;
    expect(moved).toEqual({ url: receiver.url('/a'), secret: null });
    expect((await graphql(api.url, shop, WebhookDocument)).data.webhook?.url).toBe(receiver.url('/a'));
    const rotated = (await graphql(api.url, shop, RotateWebhookSecretDocument)).data.rotateWebhookSecret;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first.secret);
    // Each environment has its own webhook.
    expect((await graphql(api.url, shopProd, WebhookDocument)).data.webhook).toBeNull();
    const bad = await graphql(api.url, shop, SetWebhookDocument, { url: 'not a url' });
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('starts a campaign, streams its progress until completed, and reports rows and deliveries', async () => {
    const secret = (await graphql(api.url, shop, RotateWebhookSecretDocument)).data.rotateWebhookSecret.secret!;
    const started = (await graphql(api.url, shop, StartCampaignDocument, { csvUrl: files.url('/list.csv') })).data
      .startCampaign;
    expect(started.message).toContain(started.campaign.id);
    expect(started.message).toContain(files.url('/list.csv'));

    const socket = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols, { headers: shop });
        }
      },
    });
    const reports: CampaignProgressSubscription['campaignProgress'][] = [];
    let completed = false;
    try {
      await new Promise<void>((resolve, reject) => {
        socket.subscribe<CampaignProgressSubscription>(
          { query: print(CampaignProgressDocument), variables: { id: started.campaign.id } },
          {
            next: (result) =>
              result.errors
                ? reject(new Error(JSON.stringify(result.errors)))
                : reports.push(result.data!.campaignProgress),
            error: reject,
            complete: () => {
              completed = true;
              resolve();
            },
          },
        );
      });
    } finally {
      await socket.dispose();
    }
    // The stream ends by itself with the completed campaign; its counts only ever grow.
    expect(completed).toBe(true);
    const last = reports[reports.length - 1];
    expect(last).toMatchObject({
      campaignId: started.campaign.id,
      status: 'completed',
      counts: { rows: 7, generated: 6, notified: 6, failed: 1, invalid: 1 },
    });
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i].sequence).toBeGreaterThan(reports[i - 1].sequence);
      expect(reports[i].counts.notified).toBeGreaterThanOrEqual(reports[i - 1].counts.notified);
    }

    const campaign = await finishedCampaign(api.url, shop, started.campaign.id);
    expect(campaign.rows.edges.map((e) => e.node.line)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(campaign.rows.edges[6].node).toMatchObject({ reference: 'g-bad', state: 'invalid', projectId: null });
    expect(campaign.deliveries.edges).toHaveLength(6);
    const received = receiver.received.filter((r) => r.path === '/a');
    expect(received).toHaveLength(6);
    for (const request of received)
      expect(new Webhook(secret).verify(request.raw, request.headers)).toEqual(request.body);

    // Rows page in file order; a state narrows them.
    const page = await graphql(api.url, shop, CampaignDocument, { id: campaign.id, state: 'invalid' });
    expect(page.data.campaign.rows.edges.map((e) => e.node.reference)).toEqual(['g-bad']);
  });

  it('lists campaigns newest first as a Relay connection', async () => {
    const second = (await graphql(api.url, shop, StartCampaignDocument, { csvUrl: files.url('/list.csv') })).data
      .startCampaign.campaign;
    await finishedCampaign(api.url, shop, second.id);
    const firstPage = (await graphql(api.url, shop, CampaignsDocument, { first: 1 })).data.campaigns;
    expect(firstPage.edges.map((e) => e.node.id)).toEqual([second.id]);
    expect(firstPage.pageInfo.hasNextPage).toBe(true);
    const next = (await graphql(api.url, shop, CampaignsDocument, { first: 1, after: firstPage.pageInfo.endCursor }))
      .data.campaigns;
    expect(next.edges).toHaveLength(1);
    expect(next.edges[0].node.id).not.toBe(second.id);
    // The second run of the same file made nothing new: every good reference already had its project.
    expect(firstPage.edges[0].node.counts).toMatchObject({ rows: 7, generated: 0, notified: 0 });
    const bad = await graphql(api.url, shop, CampaignsDocument, { first: 1, after: 'not-a-cursor' });
    expect(bad.errors?.[0].extensions.code).toBe('UNKNOWN_CURSOR');
  });

  it("never shows one client's campaigns or deliveries to another, nor dev data to prod credentials", async () => {
    const campaignId = (await graphql(api.url, shop, CampaignsDocument, { first: 1 })).data.campaigns.edges[0].node.id;
    const delivered = (await graphql(api.url, shop, CampaignsDocument, { first: 10 })).data.campaigns.edges.at(-1)!.node
      .id;
    const deliveryId = (await graphql(api.url, shop, CampaignDocument, { id: delivered })).data.campaign.deliveries
      .edges[0].node.id;
    for (const auth of [other, shopProd]) {
      expect((await graphql(api.url, auth, CampaignDocument, { id: campaignId })).errors?.[0].extensions.code).toBe(
        'NOT_FOUND',
      );
      expect((await graphql(api.url, auth, CampaignsDocument, { first: 10 })).data.campaigns.edges).toEqual([]);
      expect(
        (await graphql(api.url, auth, WebhookDeliveryDocument, { id: deliveryId })).errors?.[0].extensions.code,
      ).toBe('NOT_FOUND');
      expect((await graphql(api.url, auth, ReplayWebhookDocument, { deliveryId })).errors?.[0].extensions.code).toBe(
        'NOT_FOUND',
      );
    }
    const socket = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols, { headers: other });
        }
      },
    });
    const errors: unknown[] = [];
    socket.subscribe(
      { query: print(CampaignProgressDocument), variables: { id: campaignId } },
      { next: (r) => r.errors && errors.push(...r.errors), error: (e) => errors.push(e), complete: () => undefined },
    );
    await waitFor(async () => errors.length > 0, 5_000, 'the subscription to be refused');
    await socket.dispose();
    expect(JSON.stringify(errors)).toContain('was not found');
  });
});
