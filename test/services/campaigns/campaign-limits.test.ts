import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { campaignIdIn, finishedCampaign, graphql } from '../../support/campaigns';
import { SetWebhookDocument } from '../../support/generated/graphql';

const HEADER = 'reference,userId,sku,psp,marketId\n';
const row = (n: number) => `r-${n},user-${n},PB-HC-A4-P,local,0\n`;
/** The most the endless file's server sends before giving up by itself. */
const ENDLESS_CAP_BYTES = 40 * 1024 * 1024;

describe('campaign files have a row limit (CAMPAIGN_MAX_ROWS)', () => {
  let api: TestService;
  let receiver: WebhookReceiver;
  let files: http.Server;
  let auth: Record<string, string>;
  /** Bytes the endless file's server managed to send before the download stopped. */
  let endlessBytesSent = 0;

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      CAMPAIGN_MAX_ROWS: '3',
      WEBHOOK_RETRY_SPACING: '100ms',
    });
    receiver = await startWebhookReceiver();
    files = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' });
      if (request.url === '/three.csv') return void response.end(HEADER + [1, 2, 3].map(row).join(''));
      if (request.url === '/four.csv') return void response.end(HEADER + [1, 2, 3, 4].map(row).join(''));
      // Rows without end, as fast as the reader takes them.
      void (async () => {
        let closed = false;
        response.on('close', () => {
          closed = true;
        });
        response.write(HEADER);
        for (let n = 1; !closed && endlessBytesSent < ENDLESS_CAP_BYTES; n += 1000) {
          const chunk = Array.from({ length: 1000 }, (_, i) => row(n + i)).join('');
          endlessBytesSent += chunk.length;
          if (!response.write(chunk)) await drainedOrClosed(response);
        }
        response.end();
      })();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    auth = serviceHeader((await api.createClient('Row limit shop')).credentials.dev);
    await graphql(api.url, auth, SetWebhookDocument, { url: receiver.url('/hook') });
  });
  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
    files?.closeAllConnections();
    await new Promise((resolve) => files?.close(resolve));
  });

  const run = async (path: string) => {
    const { port } = files.address() as AddressInfo;
    const started = await post(
      api.url,
      '/v2/campaign/auto-generate',
      { csvUrl: `http://127.0.0.1:${port}${path}` },
      auth,
    );
    expect(started.status).toBe(200);
    return finishedCampaign(api.url, auth, campaignIdIn(started.body.message));
  };

  it('takes a file of exactly the limit', async () => {
    const campaign = await run('/three.csv');
    expect(campaign).toMatchObject({ status: 'completed', counts: { rows: 3, notified: 3 } });
  });

  it('fails a file with one row more, naming the limit, and keeps none of its rows', async () => {
    const campaign = await run('/four.csv');
    expect(campaign).toMatchObject({ status: 'failed', counts: { rows: 0 } });
    expect(campaign.reason).toBe(
      'the file has more than 3 rows (line 5 is row 4); split it into campaigns of at most 3 rows',
    );
    expect(campaign.rows.edges).toHaveLength(0);
  });

  it('stops downloading an endless file at the row past the limit', async () => {
    const campaign = await run('/endless.csv');
    expect(campaign.status).toBe('failed');
    expect(campaign.reason).toMatch(/^the file has more than 3 rows/);
    // Only what the sockets buffered beyond the fourth row: far from the 50 MiB file size cap.
    expect(endlessBytesSent).toBeLessThan(8 * 1024 * 1024);
  });
});

function drainedOrClosed(response: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
