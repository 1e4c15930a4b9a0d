import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery } from '../../../src/db/entities';
import { recordEvent } from '../../../src/services/webhooks/webhook-events';
import { verifyStandardWebhook } from '../../../src/printers/standard-webhooks';
import { startTestService, type TestService } from '../../support/harness';
import { request, serviceHeader } from '../../support/http';
import { graphql as graphqlAt } from '../../support/graphql';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { waitFor } from '../../support/wait';

/** The events' schedule at 1/10 000: its 27.6 hours pass in about 10 s, 7 minutes in 42 ms. */
const SCALE = 0.0001;
const SEVEN_MINUTES_SCALED_MS = 7 * 60_000 * SCALE;

async function shopOf(api: TestService, name: string, url: string) {
  const client = await api.createClient(name);
  const auth = serviceHeader(client.credentials.dev);
  const set = await graphqlAt(api.url, auth, 'mutation ($url: String!) { setWebhook(url: $url) { secret } }', { url });
  expect(set.errors).toBeUndefined();
  return { clientId: client.clientId, auth, secret: set.data.setWebhook.secret as string };
}

/** An order's change as its writer records it: the event and its delivery in one transaction. */
async function recordOrderEvent(api: TestService, clientId: string, orderId: string, note: string) {
  const em = (await api.orm()).em.fork();
  return em.transactional((tx) =>
    recordEvent(tx, { clientId, env: 'dev' }, { type: 'order.updated', orderId, data: { orderId, note } }),
  );
}

async function deliveriesOf(api: TestService, eventIds: string[]) {
  return (await api.orm()).em
    .fork()
    .find(WebhookDelivery, { eventId: { $in: eventIds } }, { populate: ['attempts'], orderBy: { position: 'asc' } });
}

/**
 * A receiver down far longer than the 7 minutes order events used to be retried for, the service
 * restarted meanwhile: every event arrives once the receiver is back, each exactly once and under
 * the webhook-id it had from the first attempt; an order's events in their order.
 */
describe('order events outlast a receiver that is down for hours', () => {
  let api: TestService | undefined;
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    await receiver?.close();
    await api?.stop();
  });

  it('delivers every event once the receiver is back, across a restart, each once with its webhook-id', async () => {
    const env = { ALLOW_LOOPBACK_URLS: 'true', WEBHOOK_RETRY_SCALE: String(SCALE) };
    api = await startTestService(env);
    receiver = await startWebhookReceiver();
    const port = Number(new URL(receiver.url()).port);
    const shop = await shopOf(api, 'Outage shop', receiver.url('/hook'));
    await receiver.close();
    const downAt = Date.now();

    const events: { eventId: string; orderId: string }[] = [];
    for (const [orderId, count] of [
      ['outage-1', 3],
      ['outage-2', 2],
    ] as const)
      for (let i = 0; i < count; i++)
        events.push({ orderId, ...(await recordOrderEvent(api, shop.clientId, orderId, `change ${i + 1}`)) });
    const test = await graphqlAt(api.url, shop.auth, 'mutation { sendTestWebhook { webhookId } }');
    expect(test.errors).toBeUndefined();
    const ids = [...events.map((e) => e.eventId), test.data.sendTestWebhook.webhookId as string];

    // Attempts at 0, 0.5, 30, 210 and 930 ms (of 0, 5 s, 5 min, 30 min and 2.6 h at scale 1) fail:
    // the old schedule would have given up after its 4th. Then the process stops in a durable wait.
    await waitFor(
      async () => (await deliveriesOf(api!, ids)).filter((d) => d.attempts.length >= 5).length >= 2,
      20_000,
      'five failed attempts',
    );
    const beforeRestart = await deliveriesOf(api, ids);
    expect(beforeRestart.every((d) => d.status === 'pending')).toBe(true);
    expect(beforeRestart[0].nextAttemptAt).toBeInstanceOf(Date);
    await api.stop({ keepData: true });
    receiver = await startWebhookReceiver(() => 200, { port });
    const downForMs = Date.now() - downAt;
    expect(downForMs).toBeGreaterThan(SEVEN_MINUTES_SCALED_MS * 10);
    api = await startTestService(env, api);

    await waitFor(
      async () => new Set(receiver!.received.map((r) => r.headers['webhook-id'])).size === ids.length,
      60_000,
      'all',
    );
    // Nothing more arrives: each event once.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const received = receiver.received;
    expect(received.map((r) => r.headers['webhook-id']).sort()).toEqual([...ids].sort());
    const verifier = new Webhook(shop.secret);
    for (const r of received) {
      expect(() => verifier.verify(r.raw, r.headers)).not.toThrow();
      expect(r.body.id).toBe(r.headers['webhook-id']);
    }
    // An order's events in the order they happened.
    for (const orderId of ['outage-1', 'outage-2']) {
      const sent = received.filter((r) => r.body.data.orderId === orderId).map((r) => r.body.id);
      expect(sent).toEqual(events.filter((e) => e.orderId === orderId).map((e) => e.eventId));
    }
    const settled = await deliveriesOf(api, ids);
    expect(settled.map((d) => d.status)).toEqual(ids.map(() => 'delivered'));
    // The first event of each order was tried more than the 4 times that used to be all, before and
    // after the restart, and delivered once the receiver answered.
    for (const orderId of ['outage-1', 'outage-2']) {
      const first = settled.find((d) => d.eventId === events.find((e) => e.orderId === orderId)!.eventId)!;
      const attempts = first.attempts.getItems();
      expect(attempts.length).toBeGreaterThan(4);
      expect(attempts.at(-1)!.statusCode).toBe(200);
      expect(attempts.slice(0, -1).every((a) => a.statusCode === null && a.error)).toBe(true);
      expect(attempts.at(-1)!.attemptedAt.getTime() - attempts[0].attemptedAt.getTime()).toBeGreaterThan(
        SEVEN_MINUTES_SCALED_MS,
      );
      expect(first.nextAttemptAt).toBeNull();
    }
    // The later events of an order waited for its first (no attempt while it was pending), then went once each.
    const later = events.filter((e, i) => events.findIndex((x) => x.orderId === e.orderId) !== i).map((e) => e.eventId);
    expect(later).toHaveLength(3);
    for (const d of settled.filter((d) => later.includes(d.eventId!))) expect(d.attempts.length).toBe(1);
  }, 180_000);
});

/**
 * An endpoint failing for WEBHOOK_DISABLE_AFTER is disabled (an `endpoint.disabled` event on the
 * catch-up feed, nothing more sent) until the shop enables it; a rotated secret keeps signing beside
 * the new one for WEBHOOK_SECRET_OVERLAP.
 */
describe('endpoint disabling and secret rotation', () => {
  let api: TestService;
  let receiver: WebhookReceiver;
  let downAnswers = 503;
  const OVERLAP_MS = 8_000;

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      WEBHOOK_RETRY_SCALE: String(SCALE),
      WEBHOOK_DISABLE_AFTER: '2s',
      WEBHOOK_SECRET_OVERLAP: `${OVERLAP_MS}ms`,
    });
    receiver = await startWebhookReceiver((path) => (path === '/down' ? downAnswers : 200));
  });
  afterAll(async () => {
    await receiver?.close();
    await api?.stop();
  });
  const graphql = (auth: Record<string, string>, query: string) => graphqlAt(api.url, auth, query);
  const receivedAt = (path: string) => receiver.received.filter((r) => r.path === path);

  it('disables an endpoint failing past the configured time, tells the feed, sends nothing until re-enabled', async () => {
    const shop = await shopOf(api, 'Failing shop', receiver.url('/down'));
    const other = await shopOf(api, 'Healthy shop', receiver.url('/healthy'));
    const first = await recordOrderEvent(api, shop.clientId, 'failing-1', 'first');
    const second = await recordOrderEvent(api, shop.clientId, 'failing-2', 'second');

    await waitFor(
      async () => (await graphql(shop.auth, '{ webhook { disabledAt } }')).data.webhook.disabledAt !== null,
      30_000,
      'endpoint disabled',
    );
    const endpoint = (await graphql(shop.auth, '{ webhook { url failingSince disabledAt disabledReason } }')).data
      .webhook;
    expect(endpoint.url).toBe(receiver.url('/down'));
    expect(Date.parse(endpoint.disabledAt) - Date.parse(endpoint.failingSince)).toBeGreaterThanOrEqual(2_000);
    expect(endpoint.disabledReason).toMatch(/HTTP 503/);

    const feed = (await request(api.url, 'GET', '/v2/events?types=endpoint.disabled', { headers: shop.auth })).body;
    expect(feed.data).toHaveLength(1);
    expect(feed.data[0]).toMatchObject({
      type: 'endpoint.disabled',
      data: { url: receiver.url('/down'), failingSince: endpoint.failingSince, disabledAt: endpoint.disabledAt },
    });
    // Another shop's feed has no such event, and its webhook is enabled.
    expect(
      (await request(api.url, 'GET', '/v2/events?types=endpoint.disabled', { headers: other.auth })).body.data,
    ).toEqual([]);
    expect((await graphql(other.auth, '{ webhook { disabledAt } }')).data.webhook.disabledAt).toBeNull();

    // Deliveries stop: both give up, and nothing more reaches the receiver.
    await waitFor(
      async () => (await deliveriesOf(api, [first.eventId, second.eventId])).every((d) => d.status === 'failed'),
      20_000,
      'pending deliveries stopped',
    );
    const sentBefore = receivedAt('/down').length;
    const whileDisabled = await recordOrderEvent(api, shop.clientId, 'failing-3', 'while disabled');
    expect(await deliveriesOf(api, [whileDisabled.eventId])).toHaveLength(0);
    const test = await graphql(shop.auth, 'mutation { sendTestWebhook { id } }');
    expect(test.errors[0].extensions.code).toBe('WEBHOOK_DISABLED');
    const failed = (await deliveriesOf(api, [first.eventId]))[0];
    const replay = await graphqlAt(
      api.url,
      shop.auth,
      'mutation ($id: String!) { replayWebhook(deliveryId: $id) { id } }',
      { id: failed.id },
    );
    expect(replay.errors[0].extensions.code).toBe('WEBHOOK_DISABLED');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receivedAt('/down')).toHaveLength(sentBefore);
    // The event recorded meanwhile waits on the catch-up feed.
    const missed = (await request(api.url, 'GET', `/v2/events?after=${feed.data[0].id}`, { headers: shop.auth })).body;
    expect(missed.data.map((e: { id: string }) => e.id)).toEqual([whileDisabled.eventId]);

    // Another shop cannot enable it: its own enableWebhook touches only its own endpoint.
    expect(
      (await graphql(other.auth, 'mutation { enableWebhook { disabledAt } }')).data.enableWebhook.disabledAt,
    ).toBeNull();
    expect((await graphql(shop.auth, '{ webhook { disabledAt } }')).data.webhook.disabledAt).not.toBeNull();

    // The shop fixes its receiver and enables the endpoint: new events go out again.
    downAnswers = 200;
    const enabled = await graphql(shop.auth, 'mutation { enableWebhook { disabledAt failingSince disabledReason } }');
    expect(enabled.data.enableWebhook).toEqual({ disabledAt: null, failingSince: null, disabledReason: null });
    const after = await recordOrderEvent(api, shop.clientId, 'failing-4', 'after enabling');
    await waitFor(async () => receivedAt('/down').some((r) => r.body.id === after.eventId), 20_000, 'sent again');
    expect(receivedAt('/down').some((r) => r.body.id === whileDisabled.eventId)).toBe(false);
    // A failed delivery can be replayed again.
    const sentOfFirst = receivedAt('/down').filter((r) => r.body.id === first.eventId).length;
    const replayed = await graphqlAt(
      api.url,
      shop.auth,
      'mutation ($id: String!) { replayWebhook(deliveryId: $id) { id } }',
      { id: failed.id },
    );
    expect(replayed.errors).toBeUndefined();
    await waitFor(
      async () => receivedAt('/down').filter((r) => r.body.id === first.eventId).length === sentOfFirst + 1,
      20_000,
      'replayed',
    );

    // Failing again, disabled again; enabled with redeliver: what did not reach it goes out, in order, once each.
    downAnswers = 503;
    const failedAgain = await recordOrderEvent(api, shop.clientId, 'failing-5', 'failing again');
    await waitFor(
      async () => (await graphql(shop.auth, '{ webhook { disabledAt } }')).data.webhook.disabledAt !== null,
      30_000,
      'endpoint disabled again',
    );
    const missedAgain = await recordOrderEvent(api, shop.clientId, 'failing-5', 'while disabled again');
    await waitFor(
      async () => (await deliveriesOf(api, [failedAgain.eventId]))[0].status === 'failed',
      20_000,
      'its delivery stopped',
    );
    downAnswers = 200;
    const before = receivedAt('/down').length;
    const redelivered = await graphql(shop.auth, 'mutation { enableWebhook(redeliver: true) { disabledAt } }');
    expect(redelivered.data.enableWebhook.disabledAt).toBeNull();
    await waitFor(async () => receivedAt('/down').length >= before + 2, 20_000, 'the missed events sent');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const resent = receivedAt('/down').slice(before);
    expect(resent.map((r) => r.body.id)).toEqual([failedAgain.eventId, missedAgain.eventId]);
    // Events from before this failing streak are not sent again.
    expect(resent.some((r) => r.body.id === whileDisabled.eventId)).toBe(false);
    expect((await deliveriesOf(api, [failedAgain.eventId, missedAgain.eventId])).map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
    ]);
  }, 120_000);

  it('signs with the old and the new secret during the overlap after a rotation, with the new one only after it', async () => {
    const shop = await shopOf(api, 'Rotating shop', receiver.url('/rotate'));
    const oldSecret = shop.secret;
    const rotated = await graphql(shop.auth, 'mutation { rotateWebhookSecret { secret previousSecretExpiresAt } }');
    const newSecret = rotated.data.rotateWebhookSecret.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    const expiresAt = Date.parse(rotated.data.rotateWebhookSecret.previousSecretExpiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(OVERLAP_MS - 3_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(OVERLAP_MS);
    expect(
      Date.parse(
        (await graphql(shop.auth, '{ webhook { previousSecretExpiresAt } }')).data.webhook.previousSecretExpiresAt,
      ),
    ).toBe(expiresAt);

    const sendTest = async () => {
      const sent = await graphql(shop.auth, 'mutation { sendTestWebhook { webhookId } }');
      expect(sent.errors).toBeUndefined();
      const id = sent.data.sendTestWebhook.webhookId as string;
      await waitFor(async () => receivedAt('/rotate').some((r) => r.body.id === id), 20_000, 'test event received');
      return receivedAt('/rotate').find((r) => r.body.id === id)!;
    };
    const verifies = (secret: string, r: { raw: string; headers: Record<string, string> }) => {
      try {
        new Webhook(secret).verify(r.raw, r.headers);
        return true;
      } catch {
        return false;
      }
    };

    // During the overlap: two signatures; a receiver holding either secret verifies (the
    // standardwebhooks library, and our own verifier).
    const during = await sendTest();
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(oldSecret, during)).toBe(true);
    expect(verifies(newSecret, during)).toBe(true);
    for (const secret of [oldSecret, newSecret])
      expect(verifyStandardWebhook({ secret, headers: during.headers, rawBody: during.raw }).id).toBe(during.body.id);

    // After it: only the new secret signs.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 200));
    expect(
      (await graphql(shop.auth, '{ webhook { previousSecretExpiresAt } }')).data.webhook.previousSecretExpiresAt,
    ).toBeNull();
    const afterwards = await sendTest();
    expect(afterwards.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifies(newSecret, afterwards)).toBe(true);
    expect(verifies(oldSecret, afterwards)).toBe(false);
    expect(() =>
      verifyStandardWebhook({ secret: oldSecret, headers: afterwards.headers, rawBody: afterwards.raw }),
    ).toThrow(/does not match/);
  }, 60_000);
});
