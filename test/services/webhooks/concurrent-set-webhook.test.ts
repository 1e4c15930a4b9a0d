import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookEndpoint } from '../../../src/db/entities';
import { openSecret } from '../../../src/services/webhooks/webhook-secret';
import { loadCredentialPepper } from '../../../src/services/tenancy/pepper';
import { graphql } from '../../support/campaigns';
import { startTestService, type TestService } from '../../support/harness';
import { serviceHeader } from '../../support/http';
import { SetWebhookDocument } from '../../support/generated/graphql';

describe('concurrent first setWebhook calls of one client and environment', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
  });
  afterAll(async () => api?.stop());

  it.each([4, 8])('%i calls at once: one endpoint, and every call answers its one secret', async (calls) => {
    const client = await api.createClient(`Racing shop ${calls}`);
    const shop = serviceHeader(client.credentials.dev);
    const answers = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        graphql(api.url, shop, SetWebhookDocument, { url: `http://127.0.0.1:9/hook-${i}` }),
      ),
    );

    expect(answers.map((answer) => answer.errors ?? null)).toEqual(Array(calls).fill(null));
    const secrets = new Set(answers.map((answer) => answer.data.setWebhook.secret));
    expect(secrets.size).toBe(1);
    const [secret] = secrets;
    expect(secret).toMatch(/^whsec_/);

    const orm = await api.orm();
    const endpoints = await orm.em.fork().find(WebhookEndpoint, { client: client.clientId, env: 'dev' });
    expect(endpoints).toHaveLength(1);
    // The secret answered is the one deliveries are signed with, and the URL is one of those sent.
    expect(openSecret(await loadCredentialPepper(api.config), endpoints[0].sealedSecret)).toBe(secret);
    expect(answers.map((answer) => answer.data.setWebhook.url)).toContain(endpoints[0].url);

    // A later call changes only the URL: the secret is shown once, to the calls that made it.
    const later = await graphql(api.url, shop, SetWebhookDocument, { url: 'http://127.0.0.1:9/later' });
    expect(later.data.setWebhook).toEqual({ url: 'http://127.0.0.1:9/later', secret: null });
  });
});
