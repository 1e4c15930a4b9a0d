import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { graphql } from '../../support/campaigns';
import { waitFor } from '../../support/wait';
import { SetWebhookDocument } from '../../support/generated/graphql';

describe('project callbacks: the same signed delivery when a project with a callback URL is editable', () => {
  let api: TestService;
  let photos: PhotoServer;
  let receiver: WebhookReceiver;
  let auth: Record<string, string>;
  let secret: string;
  let clientId: string;

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      WEBHOOK_RETRY_SPACING: '100ms',
      WEBHOOK_RETRY_SCALE: '0.00001',
    });
    photos = await startPhotoServer({ '/a.jpg': { body: await makePhoto({ width: 900, height: 600 }) } });
    receiver = await startWebhookReceiver();
    const client = await api.createClient('Callback shop');
    clientId = client.clientId;
    auth = serviceHeader(client.credentials.dev);
    secret = (await graphql(api.url, auth, SetWebhookDocument, { url: receiver.url('/campaigns') })).data.setWebhook
      .secret!;
  });
  afterAll(async () => {
    await api?.stop();
    await photos?.close();
    await receiver?.close();
  });

  const deliveriesTo = (path: string) => receiver.received.filter((r) => r.path === path);
  const editable = (id: string) =>
    waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status.project ===
        'editable',
      30_000,
      `${id} editable`,
    );

  it('posts to the callback of a duplicated project once the copy is editable, with the copy as reference', async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId: 'dup-user', sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, photos: [photos.url('/a.jpg')] },
      auth,
    );
    expect(generated.status).toBe(200);
    const sourceId = new URL(generated.body.url).searchParams.get('id')!;
    await editable(sourceId);
    expect(deliveriesTo('/copies')).toHaveLength(0);

    const copy = await post(
      api.url,
      '/v2/project/duplicate',
      { id: sourceId, callback: receiver.url('/copies') },
      auth,
    );
    expect(copy.status).toBe(200);
    await waitFor(async () => deliveriesTo('/copies').length > 0, 20_000, 'the callback');
    const [delivery] = deliveriesTo('/copies');
    expect(new Webhook(secret).verify(delivery.raw, delivery.headers)).toEqual(delivery.body);
    expect(delivery.body).toMatchObject({
      reference: copy.body.id,
      query: {
        id: copy.body.id,
        editorKey: new URL(copy.body.link).searchParams.get('editorKey'),
        clientId,
        clientName: 'Callback shop',
        user: 'dup-user',
        product: true,
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: '0',
        language: 'en',
      },
    });
    // The editor URL of the copy: its link, with the editor's query (as generate answers it).
    expect(delivery.body.url.startsWith(`${copy.body.link}&`)).toBe(true);
    // The source has no callback: nobody was told of it, and the copy is told once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.filter((r) => r.body.reference === sourceId)).toHaveLength(0);
    expect(deliveriesTo('/copies')).toHaveLength(1);
  });

  it('posts to the callback given on generate once the book is built', async () => {
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        email: 'gen@example.com',
        sku: 'PB-HC-A4-P',
        psp: 'local',
        marketId: 0,
        photos: [photos.url('/a.jpg')],
        callback: receiver.url('/generated'),
      },
      auth,
    );
    expect(generated.status).toBe(200);
    const id = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(async () => deliveriesTo('/generated').length > 0, 30_000, 'the callback');
    const [delivery] = deliveriesTo('/generated');
    expect(new Webhook(secret).verify(delivery.raw, delivery.headers)).toEqual(delivery.body);
    expect(delivery.body).toMatchObject({
      reference: id,
      url: generated.body.url,
      query: { id, user: 'gen@example.com' },
    });
    const status = await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth });
    expect(status.body.status.project).toBe('editable');
    // The same event in the outbox: /v2/events carries the body as its data, under the delivery's webhook-id.
    const events = (await request(api.url, 'GET', '/v2/events?types=project.ready', { headers: auth })).body.data;
    const event = events.find((e: { data: { reference: string } }) => e.data.reference === id);
    expect(event).toMatchObject({
      id: delivery.headers['webhook-id'],
      type: 'project.ready',
      sequence: null,
      data: delivery.body,
    });
  });

  it('refuses a callback that is not an http(s) URL, naming the field', async () => {
    const response = await post(
      api.url,
      '/v2/generate',
      { userId: 'x', sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, callback: 'mailto:shop@example.com' },
      auth,
    );
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain('callback');
  });
});
