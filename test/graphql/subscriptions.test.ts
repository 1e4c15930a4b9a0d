import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { recordStatusChange, type StatusChange } from '../../src/events/status-event-log';
import type { IssuedClient, IssuedCredentials } from '../../src/services/clients/client-admin';
import type { Tenant } from '../../src/services/context';
import {
  StatusEventsDocument,
  type StatusEventsSubscription,
  type StatusEventsSubscriptionVariables,
} from '../support/generated/graphql';
import { startTestService, type TestService } from '../support/harness';
import { serviceHeader } from '../support/http';

type ReceivedEvent = StatusEventsSubscription['statusEvents'];

const WAIT_MS = 5_000;

/** Polls until `condition` holds, failing with `what` after WAIT_MS so nothing hangs. */
async function waitFor(what: string, condition: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves with the first value, or rejects after WAIT_MS. */
function within<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${WAIT_MS} ms waiting for ${what}`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A WebSocket class that sends `headers` with the upgrade request, for graphql-ws's webSocketImpl. */
function webSocketWithHeaders(headers: Record<string, string>) {
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  };
}

interface Subscription {
  events: ReceivedEvent[];
  errors: unknown[];
  stop(): void;
}

function subscribeToStatusEvents(client: Client, variables: StatusEventsSubscriptionVariables): Subscription {
  const events: ReceivedEvent[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe<StatusEventsSubscription>(
    { query: print(StatusEventsDocument), variables },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        if (result.data) events.push(result.data.statusEvents);
      },
      error: (error) => errors.push(error),
      complete: () => undefined,
    },
  );
  return { events, errors, stop };
}

describe('GraphQL subscriptions over graphql-ws at /graphql', () => {
  let api: TestService;
  let wsUrl: string;
  let shop: IssuedClient;
  let otherShop: IssuedClient;
  const clients: Client[] = [];

  const tenantOf = (client: IssuedClient, env: Tenant['env']): Tenant => ({
    clientId: client.clientId,
    clientName: client.name,
    env,
  });

  /** Commits a status change through a second ORM, i.e. another connection pool than the API's. */
  async function commit(tenant: Tenant, change: StatusChange): Promise<void> {
    const orm = await api.orm();
    await orm.em.fork().transactional((tx) => recordStatusChange(tx, tenant, change));
  }

  /**
   * The protocol has no "subscribed" acknowledgement: commit probe events of this tenant until one
   * arrives, which proves the server is listening for this subscription.
   */
  async function untilListening(subscription: Subscription, tenant: Tenant, subjectType = 'project'): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    for (let attempt = 1; ; attempt++) {
      await commit(tenant, { subjectType, subjectId: `probe-${crypto.randomUUID()}`, status: 'probe' });
      try {
        await waitFor('a probe event', () => subscription.events.some((event) => event.status === 'probe'), 250);
        return;
      } catch {
        if (Date.now() > deadline)
          throw new Error(
            `the subscription never received a probe (${attempt} tries); errors: ${JSON.stringify(subscription.errors)}`,
          );
      }
    }
  }

  function connect(options: {
    connectionParams?: Record<string, unknown>;
    headers?: Record<string, string>;
    onClosed?: (event: unknown) => void;
  }): Client {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: options.headers ? webSocketWithHeaders(options.headers) : WebSocket,
      connectionParams: options.connectionParams,
      lazy: true,
      retryAttempts: 0,
      on: { closed: (event) => options.onClosed?.(event) },
    });
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    api = await startTestService();
    wsUrl = `${api.url.replace(/^http/, 'ws')}/graphql`;
    shop = await api.createClient('Subscribing shop');
    otherShop = await api.createClient('Other shop');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  afterAll(() => api?.stop());

  it('delivers, in commit order, the events another connection commits for this client and environment only', async () => {
    const credentials: IssuedCredentials = shop.credentials.dev;
    const client = connect({
      connectionParams: { accessKey: credentials.accessKey, accessSecret: credentials.accessSecret },
    });
    const subscription = subscribeToStatusEvents(client, { subjectType: 'project' });
    const dev = tenantOf(shop, 'dev');
    await untilListening(subscription, dev);

    const project = `project-${crypto.randomUUID()}`;
    // Committed before the matching events: had the filter let them through, they would arrive first.
    await commit(tenantOf(otherShop, 'dev'), {
      subjectType: 'project',
      subjectId: `project-${crypto.randomUUID()}`,
      status: 'other-client',
    });
    await commit(tenantOf(shop, 'prod'), {
      subjectType: 'project',
      subjectId: `project-${crypto.randomUUID()}`,
      status: 'prod',
    });
    await commit(dev, {
      subjectType: 'order',
      subjectId: `order-${crypto.randomUUID()}`,
      status: 'other-subject-type',
    });
    const orm = await api.orm();
    await expect(
      orm.em.fork().transactional(async (tx) => {
        await recordStatusChange(tx, dev, { subjectType: 'project', subjectId: project, status: 'rolled-back' });
        throw new Error('abandon this change');
      }),
    ).rejects.toThrow('abandon this change');

    await commit(dev, { subjectType: 'project', subjectId: project, status: 'created', detail: { pages: 24 } });
    await commit(dev, {
      subjectType: 'project',
      subjectId: project,
      status: 'ready',
      detail: { previewUrl: 'https://example.com/p.pdf' },
    });

    const ofProject = () => subscription.events.filter((event) => event.subjectId === project);
    await waitFor('both project events', () => ofProject().length >= 2);
    expect(subscription.errors).toEqual([]);
    expect(ofProject()).toEqual([
      {
        subjectType: 'project',
        subjectId: project,
        status: 'created',
        sequence: 1,
        detail: { pages: 24 },
        occurredAt: expect.any(String),
      },
      {
        subjectType: 'project',
        subjectId: project,
        status: 'ready',
        sequence: 2,
        detail: { previewUrl: 'https://example.com/p.pdf' },
        occurredAt: expect.any(String),
      },
    ]);
    for (const event of ofProject()) expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt);
    // Nothing but probes and this project's two events arrived: not the other client's, not prod's,
    // not another subject type's, not the rolled-back one.
    expect(subscription.events.filter((event) => event.status !== 'probe').map((event) => event.status)).toEqual([
      'created',
      'ready',
    ]);
  });

  it('authenticates with the X-Service header of the upgrade request', async () => {
    const client = connect({ headers: serviceHeader(otherShop.credentials.prod) });
    const subscription = subscribeToStatusEvents(client, {});
    await untilListening(subscription, tenantOf(otherShop, 'prod'), 'campaign');
    await commit(tenantOf(shop, 'prod'), {
      subjectType: 'campaign',
      subjectId: `campaign-${crypto.randomUUID()}`,
      status: 'not-mine',
    });
    const campaign = `campaign-${crypto.randomUUID()}`;
    await commit(tenantOf(otherShop, 'prod'), { subjectType: 'campaign', subjectId: campaign, status: 'sent' });
    await waitFor('the campaign event', () => subscription.events.some((event) => event.subjectId === campaign));
    expect(subscription.events.filter((event) => event.status !== 'probe')).toEqual([
      expect.objectContaining({ subjectType: 'campaign', subjectId: campaign, status: 'sent', sequence: 1 }),
    ]);
  });

  describe('closes the socket with 4403 for bad credentials', () => {
    it.each([
      [
        'a wrong accessSecret in connection_init',
        () => ({ connectionParams: { accessKey: shop.credentials.dev.accessKey, accessSecret: 'wrong' } }),
      ],
      [
        'an unknown accessKey in connection_init',
        () => ({ connectionParams: { accessKey: 'nobody', accessSecret: 'wrong' } }),
      ],
      [
        'a wrong X-Service header',
        () => ({ headers: serviceHeader({ accessKey: shop.credentials.dev.accessKey, accessSecret: 'wrong' }) }),
      ],
      ['an X-Service header that is not JSON', () => ({ headers: { 'x-service': 'not json' } })],
      ['no credentials at all', () => ({})],
    ])('%s', async (_case, options) => {
      let closeCode: number | undefined;
      const closed = new Promise<number>((resolve) => {
        const client = connect({
          ...options(),
          onClosed: (event) => {
            closeCode = (event as { code: number }).code;
            resolve(closeCode);
          },
        });
        subscribeToStatusEvents(client, {});
      });
      expect(await within('the socket to close', closed)).toBe(4403);
      expect(closeCode).toBe(4403);
    });
  });
});
