import { readFileSync } from 'node:fs';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { createClient, type Client as WsClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  Campaign,
  CampaignRow,
  EndUser,
  Market,
  Order,
  OrderLine,
  Photo,
  Product,
  Project,
  StatusEvent,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../src/db/entities';
import { ACROSS_TENANTS, scopeToTenant, TENANT_FILTER } from '../../src/db/tenant-filter';
import { recordStatusChange, type StatusChange } from '../../src/events/status-event-log';
import { loadDemoCatalogue, replaceCatalogue } from '../../src/services/catalogue/catalogue-import';
import type { IssuedClient, IssuedCredentials } from '../../src/services/clients/client-admin';
import { signPspEvent } from '../support/psp-events';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader, type JsonResponse } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';
import { graphql as graphqlAt } from '../support/graphql';

/*
 * The tenancy matrix: every REST endpoint and every GraphQL operation, called by one partition
 * (client and environment) with another partition's ids and end users, finds nothing of them.
 * Client B owns projects and orders (a live order waiting for payment, a sandbox order the sandbox
 * printer completed) in dev and in prod, made through the API; client A owns nothing of its own.
 * Pairs: A against B in both environments and across them, and B's dev against B's prod and back.
 *
 * The ids tried: B's three projects (editable by userId, editable by e-mail, ordered), its order
 * (the sandbox one completed, the live one waiting for payment), its exact print request again
 * (the idempotency key), its end users by userId and e-mail, its print job id, and the product and
 * market only B's catalogue has (the catalogue is per client, shared by dev and prod by design).
 *
 * Adding an operation is one entry in PROBES (REST, queries, mutations) or SUBSCRIPTIONS; the
 * coverage tests fail while an operation of the OpenAPI document or of schema/schema.graphql has
 * no entry. An entry that needs rows of its own kind (a campaign) makes them for the owner in
 * `seed`, through the API, and finds them in `owner.seeded[operation]`.
 */

type Env = 'dev' | 'prod';

interface Partition {
  name: string;
  clientId: string;
  clientName: string;
  env: Env;
  credentials: IssuedCredentials;
  /** Ids this partition made itself (its own rows may show up in its own answers). */
  own: { projects: Set<string>; orders: Set<string> };
}

/** What one of B's partitions owns, made through the API, and what each probe seeded for itself. */
interface Owner {
  partition: Partition;
  userId: string;
  email: string;
  projects: string[];
  orders: { orderId: string; projectId: string; body: ReturnType<typeof printBody> }[];
  jobId: string;
  seeded: Record<string, unknown>;
}

interface Probe {
  /** `METHOD /path` as the OpenAPI document names it, or `Query.x` / `Mutation.x` as the schema does. */
  operation: string;
  /** Makes rows of the owner this probe needs beyond the common ones, through the API, before the matrix runs. */
  seed?: (owner: Partition) => Promise<unknown>;
  /** Calls the operation as `caller` with the owner's ids and end users; asserts it finds none of them. */
  attempt(caller: Partition, owner: Owner): Promise<void>;
}

interface SubscriptionProbe {
  operation: string;
  query: string;
  /** One subscription per variable set, aimed at the owner's ids and end users. */
  variables(owner: Owner): Record<string, unknown>[];
  /** An event of the caller's own tenant this subscription must deliver: proves it is listening. */
  ownEvent(variables: Record<string, unknown>, status: string): StatusChange;
  /** The status a delivered payload carries. */
  statusOf(payload: any): string;
}

const SECRET = `whsec_${Buffer.from('a-32-byte-secret-for-the-matrix!').toString('base64')}`;
/** Only B's catalogue has these (B's catalogue is the demo one with one product and one market renamed). */
const B_ONLY_SKU = 'B-ONLY-SKU';
const B_ONLY_MARKET = 'b-only';
const B_ONLY_STORE = 'B-only store';

/** REST operations without tenant data, and why. */
const WITHOUT_TENANT_DATA: Record<string, string> = {
  'GET /healthz': 'process liveness, no data',
  'GET /readyz': 'database reachability, no data',
};

let api: TestService;

/** A sku only this partition's routing names, so another partition's answer can be searched for it. */
const routingMarkOf = (partition: Partition) => `ROUTED-${partition.name}`;

/** The owner's routing: one rule naming its mark, the printers a live shop might use. */
async function seedPrintRouting(owner: Partition): Promise<{ projects: string[] }> {
  const result = await graphql(
    owner,
    'mutation ($input: PrintRoutingInput!) { setPrintRouting(input: $input) { holdWindowSeconds } }',
    { input: { rules: [{ match: { products: [routingMarkOf(owner)] }, printers: ['prodigi', 'local'] }] } },
  );
  expect(result.errors).toBeUndefined();
  return { projects: [] };
}

const isGraphql = (operation: string) => /^(Query|Mutation|Subscription)\./.test(operation);
const sameClient = (caller: Partition, owner: Owner) => caller.clientId === owner.partition.clientId;
const pwa = (caller: Partition) => serviceHeader(caller.credentials);
const ecommerce = (caller: Partition, path: string, body: Record<string, unknown>) =>
  post(api.url, path, { env: caller.env, key: caller.credentials.apiKey, os: 'web', language: 'en', ...body });

function graphql(caller: Partition, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  return graphqlAt(api.url, pwa(caller), query, variables);
}

function expectNotFound(response: JsonResponse, path?: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(404);
  expect(response.body.code).toBe('NOT_FOUND');
  if (path) expect(response.body.errors).toEqual([expect.objectContaining({ path })]);
}

function expectGraphqlNotFound(result: { data?: any; errors?: any[] }): void {
  expect(
    result.errors?.map((e) => e.extensions?.code),
    JSON.stringify(result),
  ).toEqual(['NOT_FOUND']);
  expect(result.data ?? null).toBeNull();
}

/** Whatever a listing returns is the caller's own, and nothing of the owner's. */
function expectOnlyOwn(ids: string[], own: Set<string>, owners: string[]): void {
  expect(ids.filter((id) => owners.includes(id))).toEqual([]);
  expect(ids.filter((id) => !own.has(id))).toEqual([]);
}

function expectNoCatalogueOfB(answer: unknown): void {
  const text = JSON.stringify(answer);
  expect(text).not.toContain(B_ONLY_SKU);
  expect(text).not.toContain(B_ONLY_STORE);
}

const generateBody = (user: Record<string, string>) => ({ sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, ...user });
const userOf = (owner: Owner): Record<string, string>[] => [{ userId: owner.userId }, { email: owner.email }];

const PROJECT_FIELDS =
  'id title endUserId status { project photos } product { sku marketId } photos { id } preflight { printable }';
const ORDER_FIELDS =
  'orderId email lines { projectId status printFiles { coverPdfUrl interiorPdfUrl pdfUrl manifestUrl pages } }';

/** A CSV nobody serves: a campaign started with it fails at once, which is all the matrix needs of it. */
const UNREACHABLE_CSV = 'http://127.0.0.1:9/campaign.csv';
const ownerWebhookUrl = (owner: Owner) => `http://127.0.0.1:9/webhook-of-${owner.partition.name}`;
const campaignOf = (owner: Owner) =>
  owner.seeded['POST /v2/campaign/auto-generate'] as { campaignId: string; deliveryId: string; projects: string[] };

/**
 * The owner's campaign (its CSV unreachable, so it fails) and a webhook delivery of the owner's (a
 * duplicated project's callback, sent once the copy is built), made through the API.
 */
async function seedCampaignAndDelivery(
  owner: Partition,
): Promise<{ campaignId: string; deliveryId: string; projects: string[] }> {
  const webhook = await graphql(owner, 'mutation ($url: String!) { setWebhook(url: $url) { url } }', {
    url: `http://127.0.0.1:9/webhook-of-${owner.name}`,
  });
  expect(webhook.errors).toBeUndefined();
  const started = await post(api.url, '/v2/campaign/auto-generate', { csvUrl: UNREACHABLE_CSV }, pwa(owner));
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const [campaignId] = /cmp_[A-Za-z0-9]+/.exec(started.body.message) ?? [];
  expect(campaignId).toBeDefined();
  const source = await editableProject(api, pwa(owner), { userId: 'b-user', sku: 'PB-SC-15-S' });
  const copy = await post(
    api.url,
    '/v2/project/duplicate',
    { id: source, callback: 'http://127.0.0.1:9/callback' },
    pwa(owner),
  );
  expect(copy.status, JSON.stringify(copy.body)).toBe(200);
  const db = (await api.orm()).em.getConnection();
  const deliveryId = await waitFor(
    async () =>
      (
        await db.execute('SELECT id FROM webhook_deliveries WHERE client_id = ? AND env = ? AND project_id = ?', [
          owner.clientId,
          owner.env,
          copy.body.id,
        ])
      )[0]?.id as string | undefined,
    120_000,
    `${owner.name} callback delivery`,
  );
  return { campaignId: campaignId!, deliveryId, projects: [source, copy.body.id] };
}

/** A proof of the owner's (its print files rendered), made through the API. */
async function seedProof(owner: Partition): Promise<{ proofId: string; projects: string[] }> {
  const projectId = await editableProject(api, pwa(owner), { userId: 'b-user', sku: 'PB-SC-15-S' });
  const proof = await post(api.url, '/v2/project/proof', { id: projectId }, pwa(owner));
  expect(proof.status, JSON.stringify(proof.body)).toBe(200);
  return { proofId: proof.body.proofId, projects: [projectId] };
}
const proofOf = (owner: Owner) => (owner.seeded['GET /v2/project/proof'] as { proofId: string }).proofId;

const PROBES: Probe[] = [
  // --- PWA REST (X-Service) ---
  {
    operation: 'POST /v2/generate',
    async attempt(caller, owner) {
      for (const user of userOf(owner)) {
        // The same userId or e-mail in another partition is another end user: the project is the caller's.
        const response = await post(api.url, '/v2/generate', generateBody(user), pwa(caller));
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        const url = new URL(response.body.url);
        expect(url.searchParams.get('clientId')).toBe(caller.clientId);
        caller.own.projects.add(url.searchParams.get('id')!);
      }
      if (sameClient(caller, owner)) return; // the catalogue is the client's, shared by dev and prod
      const sku = await post(api.url, '/v2/generate', generateBody({ userId: 'a-user', sku: B_ONLY_SKU }), pwa(caller));
      expect([sku.status, sku.body.code]).toEqual([422, 'UNKNOWN_SKU']);
      const market = await post(
        api.url,
        '/v2/generate',
        { ...generateBody({ userId: 'a-user' }), marketId: B_ONLY_MARKET },
        pwa(caller),
      );
      expect([market.status, market.body.code]).toEqual([422, 'UNKNOWN_MARKET']);
    },
  },
  {
    operation: 'GET /v2/project/list',
    async attempt(caller, owner) {
      for (const user of [owner.userId, owner.email]) {
        const response = await request(api.url, 'GET', `/v2/project/list?user=${encodeURIComponent(user)}`, {
          headers: pwa(caller),
        });
        expect(response.status).toBe(200);
        expectOnlyOwn(
          response.body.data.map((p: { id: string }) => p.id),
          caller.own.projects,
          owner.projects,
        );
      }
    },
  },
  {
    operation: 'GET /v2/project/status',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: pwa(caller) }), 'id');
    },
  },
  {
    operation: 'GET /v2/project/preflight',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(await request(api.url, 'GET', `/v2/project/preflight?id=${id}`, { headers: pwa(caller) }), 'id');
    },
  },
  {
    operation: 'POST /v2/project/proof',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(await post(api.url, '/v2/project/proof', { id }, pwa(caller)), 'id');
    },
  },
  {
    operation: 'GET /v2/project/proof',
    seed: seedProof,
    async attempt(caller, owner) {
      expectNotFound(
        await request(api.url, 'GET', `/v2/project/proof?proofId=${proofOf(owner)}`, { headers: pwa(caller) }),
        'proofId',
      );
    },
  },
  {
    operation: 'Mutation.proofProject',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(caller, 'mutation ($id: String!) { proofProject(id: $id) { proofId } }', { id }),
        );
    },
  },
  {
    operation: 'GET /v2/project/book',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(await request(api.url, 'GET', `/v2/project/book?id=${id}`, { headers: pwa(caller) }), 'id');
    },
  },
  {
    operation: 'POST /v2/project/book/crop',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(
          await post(api.url, '/v2/project/book/crop', { id, page: 1, slot: 0, crop: null }, pwa(caller)),
          'id',
        );
    },
  },
  {
    operation: 'Query.proof',
    async attempt(caller, owner) {
      expectGraphqlNotFound(
        await graphql(caller, 'query ($id: String!) { proof(id: $id) { proofId previewUrl } }', { id: proofOf(owner) }),
      );
    },
  },
  {
    operation: 'POST /v2/project/book/captions',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(
          await post(api.url, '/v2/project/book/captions', { id, page: 1, captions: [] }, pwa(caller)),
          'id',
        );
    },
  },
  {
    operation: 'POST /v2/project/book/place',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(
          await post(
            api.url,
            '/v2/project/book/place',
            { id, photoId: '00000000-0000-4000-8000-000000000000', slot: { page: 1, slot: 0 } },
            pwa(caller),
          ),
          'id',
        );
    },
  },
  {
    operation: 'POST /v2/project/book/unplace',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(
          await post(api.url, '/v2/project/book/unplace', { id, slot: { page: 1, slot: 0 } }, pwa(caller)),
          'id',
        );
    },
  },
  {
    operation: 'POST /v2/project/book/undo',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(await post(api.url, '/v2/project/book/undo', { id }, pwa(caller)), 'id');
    },
  },
  {
    operation: 'POST /v2/project/book/redo',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(await post(api.url, '/v2/project/book/redo', { id }, pwa(caller)), 'id');
    },
  },
  {
    operation: 'GET /v2/product/cover-dimensions',
    async attempt(caller, owner) {
      if (sameClient(caller, owner)) return; // the catalogue is the client's, shared by dev and prod
      const response = await request(api.url, 'GET', `/v2/product/cover-dimensions?sku=${B_ONLY_SKU}&pages=24`, {
        headers: pwa(caller),
      });
      expect([response.status, response.body.code]).toEqual([422, 'UNKNOWN_SKU']);
    },
  },
  {
    operation: 'GET /v2/order/print-files',
    async attempt(caller, owner) {
      for (const { orderId, projectId } of owner.orders) {
        expectNotFound(
          await request(api.url, 'GET', `/v2/order/print-files?orderId=${encodeURIComponent(orderId)}`, {
            headers: pwa(caller),
          }),
          'orderId',
        );
        const one = `/v2/order/print-files?orderId=${encodeURIComponent(orderId)}&projectId=${projectId}`;
        expectNotFound(await request(api.url, 'GET', one, { headers: pwa(caller) }), 'orderId');
      }
    },
  },
  {
    operation: 'GET /v2/order',
    async attempt(caller, owner) {
      for (const { orderId } of owner.orders)
        expectNotFound(
          await request(api.url, 'GET', `/v2/order?orderId=${encodeURIComponent(orderId)}`, { headers: pwa(caller) }),
          'orderId',
        );
    },
  },
  {
    operation: 'GET /v2/order/list',
    async attempt(caller, owner) {
      const byId = owner.orders.map((o) => `?orderId=${encodeURIComponent(o.orderId)}`);
      const filters = [
        '',
        `?email=${encodeURIComponent(owner.email)}`,
        '?status=waiting',
        '?status=complete',
        '?customer=lovelace',
      ];
      for (const query of [...filters, ...byId]) {
        const response = await request(api.url, 'GET', `/v2/order/list${query}`, { headers: pwa(caller) });
        expect(response.status).toBe(200);
        expectOnlyOwn(
          response.body.data.map((o: { orderId: string }) => o.orderId),
          caller.own.orders,
          owner.orders.map((o) => o.orderId),
        );
      }
    },
  },
  {
    operation: 'GET /v2/order/actions',
    async attempt(caller, owner) {
      for (const { orderId } of owner.orders)
        expectNotFound(
          await request(api.url, 'GET', `/v2/order/actions?orderId=${encodeURIComponent(orderId)}`, {
            headers: pwa(caller),
          }),
          'orderId',
        );
    },
  },
  {
    operation: 'POST /v2/order/cancel',
    async attempt(caller, owner) {
      for (const { orderId, projectId } of owner.orders) {
        expectNotFound(await post(api.url, '/v2/order/cancel', { orderId }, pwa(caller)), 'orderId');
        expectNotFound(
          await post(api.url, '/v2/order/cancel', { orderId, projectIds: [projectId] }, pwa(caller)),
          'orderId',
        );
      }
    },
  },
  {
    operation: 'POST /v2/order/update-recipient',
    async attempt(caller, owner) {
      for (const { orderId, body } of owner.orders)
        expectNotFound(
          await post(api.url, '/v2/order/update-recipient', { orderId, user: body.user }, pwa(caller)),
          'orderId',
        );
    },
  },
  {
    operation: 'POST /v2/order/update-shipping',
    async attempt(caller, owner) {
      for (const { orderId } of owner.orders)
        expectNotFound(
          await post(api.url, '/v2/order/update-shipping', { orderId, shipping: { method: 'express' } }, pwa(caller)),
          'orderId',
        );
    },
  },
  {
    operation: 'POST /v2/order/claim',
    async attempt(caller, owner) {
      for (const { orderId, projectId } of owner.orders) {
        expectNotFound(await post(api.url, '/v2/order/claim', { orderId, reason: 'damaged' }, pwa(caller)), 'orderId');
        expectNotFound(
          await post(api.url, '/v2/order/claim', { orderId, reason: 'lost', projectIds: [projectId] }, pwa(caller)),
          'orderId',
        );
      }
    },
  },
  {
    operation: 'GET /v2/events',
    async seed(owner) {
      const page = await request(api.url, 'GET', '/v2/events', { headers: pwa(owner) });
      expect(page.body.data.length).toBeGreaterThan(0);
      return { eventIds: page.body.data.map((e: { id: string }) => e.id) };
    },
    async attempt(caller, owner) {
      const { eventIds } = owner.seeded['GET /v2/events'] as { eventIds: string[] };
      expectNotFound(
        await request(api.url, 'GET', `/v2/events?after=${eventIds[0]}`, { headers: pwa(caller) }),
        'after',
      );
      for (const query of ['', ...owner.orders.map((o) => `?orderId=${encodeURIComponent(o.orderId)}`)]) {
        const response = await request(api.url, 'GET', `/v2/events${query}`, { headers: pwa(caller) });
        expect(response.status).toBe(200);
        expect(
          response.body.data.map((e: { id: string }) => e.id).filter((id: string) => eventIds.includes(id)),
        ).toEqual([]);
      }
    },
  },
  {
    operation: 'Query.events',
    async attempt(caller, owner) {
      const { eventIds } = owner.seeded['GET /v2/events'] as { eventIds: string[] };
      expectGraphqlNotFound(
        await graphql(caller, 'query ($after: String) { events(after: $after) { events { id } } }', {
          after: eventIds[0],
        }),
      );
      const all = await graphql(caller, '{ events(first: 100) { events { id data } } }');
      expect(all.errors).toBeUndefined();
      expect(
        all.data.events.events.map((e: { id: string }) => e.id).filter((id: string) => eventIds.includes(id)),
      ).toEqual([]);
    },
  },
  {
    operation: 'Query.orderActions',
    async attempt(caller, owner) {
      for (const { orderId } of owner.orders)
        expectGraphqlNotFound(
          await graphql(caller, 'query ($orderId: String!) { orderActions(orderId: $orderId) { action available } }', {
            orderId,
          }),
        );
    },
  },
  {
    operation: 'Mutation.cancelOrder',
    async attempt(caller, owner) {
      for (const { orderId, projectId } of owner.orders) {
        for (const projectIds of [null, [projectId]]) {
          expectGraphqlNotFound(
            await graphql(
              caller,
              `mutation ($orderId: String!, $projectIds: [String!]) { cancelOrder(orderId: $orderId, projectIds: $projectIds) { ${ORDER_FIELDS} } }`,
              { orderId, projectIds },
            ),
          );
        }
      }
    },
  },
  {
    operation: 'Mutation.claimOrder',
    async attempt(caller, owner) {
      for (const { orderId, projectId } of owner.orders) {
        for (const projectIds of [null, [projectId]]) {
          expectGraphqlNotFound(
            await graphql(
              caller,
              `mutation ($orderId: String!, $projectIds: [String!]) { claimOrder(orderId: $orderId, reason: damaged, projectIds: $projectIds) { ${ORDER_FIELDS} } }`,
              { orderId, projectIds },
            ),
          );
        }
      }
    },
  },
  {
    operation: 'Mutation.updateOrderRecipient',
    async attempt(caller, owner) {
      for (const { orderId, body } of owner.orders) {
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($orderId: String!, $user: OrderUserInput!) { updateOrderRecipient(orderId: $orderId, user: $user) { ${ORDER_FIELDS} } }`,
            { orderId, user: body.user },
          ),
        );
      }
    },
  },
  {
    operation: 'Mutation.updateOrderShipping',
    async attempt(caller, owner) {
      for (const { orderId } of owner.orders) {
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($orderId: String!) { updateOrderShipping(orderId: $orderId, shipping: { method: "express" }) { ${ORDER_FIELDS} } }`,
            { orderId },
          ),
        );
      }
    },
  },
  {
    operation: 'POST /v2/print',
    async attempt(caller, owner) {
      for (const id of owner.projects) {
        expectNotFound(
          await post(api.url, '/v2/print', printBody(`try-${crypto.randomUUID()}`, id), pwa(caller)),
          'projects[0].id',
        );
      }
      // The owner's own request again, under its orderId: no replay of the owner's confirmation.
      for (const order of owner.orders)
        expectNotFound(await post(api.url, '/v2/print', order.body, pwa(caller)), 'projects[0].id');
    },
  },
  {
    operation: 'POST /v2/quote',
    async attempt(caller, owner) {
      for (const projectId of owner.projects) {
        expectNotFound(
          await post(
            api.url,
            '/v2/quote',
            { marketId: 0, countryIso2: 'DE', lines: [{ projectId, quantity: 1 }] },
            pwa(caller),
          ),
          'lines[0].projectId',
        );
      }
      // validateOnly names the owner's projects as not found too, and lists nothing else of them.
      for (const id of owner.projects) {
        const checked = await post(
          api.url,
          '/v2/print',
          { ...printBody(`try-${crypto.randomUUID()}`, id), validateOnly: true },
          pwa(caller),
        );
        expect(checked.status).toBe(200);
        expect(checked.body).toEqual({
          valid: false,
          problems: [expect.objectContaining({ code: 'NOT_FOUND', path: 'projects[0].id' })],
        });
      }
    },
  },
  {
    operation: 'POST /v2/project/delete',
    async attempt(caller, owner) {
      for (const user of [owner.userId, owner.email]) {
        for (const type of ['sync', 'async']) {
          expectNotFound(await post(api.url, '/v2/project/delete', { user, type, ids: owner.projects }, pwa(caller)));
        }
      }
    },
  },
  {
    operation: 'POST /v2/project/duplicate',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectNotFound(await post(api.url, '/v2/project/duplicate', { id }, pwa(caller)), 'id');
    },
  },
  {
    operation: 'POST /v2/project/transfer',
    async attempt(caller, owner) {
      for (const id of owner.projects) {
        expectNotFound(await post(api.url, '/v2/project/transfer', { id, targetUser: 'a-user' }, pwa(caller)), 'id');
      }
    },
  },
  // --- eCommerce REST (env + key) ---
  {
    operation: 'POST /api/v2/product/list-product.php',
    async attempt(caller, owner) {
      const response = await ecommerce(caller, '/api/v2/product/list-product.php', { marketId: 0 });
      expect(response.status).toBe(200);
      if (!sameClient(caller, owner)) expectNoCatalogueOfB(response.body);
    },
  },
  {
    operation: 'POST /api/v2/misc/get-market.php',
    async attempt(caller, owner) {
      const response = await ecommerce(caller, '/api/v2/misc/get-market.php', { latitude: -33.87, longitude: 151.21 });
      expect(response.status).toBe(200);
      if (!sameClient(caller, owner)) expectNoCatalogueOfB(response.body);
    },
  },
  {
    operation: 'POST /api/v2/user/get-order-history.php',
    async attempt(caller, owner) {
      const response = await ecommerce(caller, '/api/v2/user/get-order-history.php', { email: owner.email });
      expect(response.status).toBe(200);
      expectOnlyOwn(
        response.body.results.map((o: { orderId: string }) => o.orderId),
        caller.own.orders,
        owner.orders.map((o) => o.orderId),
      );
    },
  },
  // --- printers ---
  {
    operation: 'POST /v2/psp/{psp}/events',
    async attempt(caller, owner) {
      // Printers are not clients: no client credential opens it, with or without a signature of its own.
      const body = JSON.stringify({ jobId: owner.jobId, status: 'refunded' });
      const unsigned = await request(api.url, 'POST', '/v2/psp/local/events', { rawBody: body, headers: pwa(caller) });
      expect([unsigned.status, unsigned.body.code]).toEqual([401, 'UNAUTHENTICATED']);
      const forged = `whsec_${Buffer.from(caller.credentials.accessSecret.padEnd(32, '!').slice(0, 32)).toString('base64')}`;
      const signed = await request(api.url, 'POST', '/v2/psp/local/events', {
        rawBody: body,
        headers: { ...pwa(caller), ...signPspEvent({ secret: forged, id: `evt_${crypto.randomUUID()}`, body }) },
      });
      expect([signed.status, signed.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    },
  },
  {
    operation: 'POST /v2/printers/{partner}/callbacks/{token}',
    async attempt(caller, owner) {
      // Partners are not clients: a client credential opens no account's callbacks; only the account's token does.
      const { callbackUrl } = owner.seeded['Query.partnerAccounts'] as { callbackUrl: string };
      const guessed = callbackUrl.replace(
        /[A-Za-z0-9_-]{32}$/,
        caller.credentials.accessKey
          .replace(/[^A-Za-z0-9]/g, '')
          .padEnd(32, 'x')
          .slice(0, 32),
      );
      const body = JSON.stringify({ event: 'order_status_updated', orderId: 'a6a1f9ce-2bdd-4a9e-9f8d-0009df0e24d9' });
      const response = await request(api.url, 'POST', new URL(guessed).pathname, {
        rawBody: body,
        headers: { ...pwa(caller), 'content-type': 'application/json' },
      });
      expect([response.status, response.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    },
  },
  // --- GraphQL queries ---
  {
    operation: 'Query.project',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(caller, `query ($id: String!) { project(id: $id) { ${PROJECT_FIELDS} } }`, { id }),
        );
    },
  },
  {
    operation: 'Query.projects',
    async attempt(caller, owner) {
      for (const user of [owner.userId, owner.email]) {
        const result = await graphql(
          caller,
          `query ($user: String!) { projects(user: $user) { edges { node { id } } } }`,
          { user },
        );
        expect(result.errors).toBeUndefined();
        expectOnlyOwn(
          result.data.projects.edges.map((e: any) => e.node.id),
          caller.own.projects,
          owner.projects,
        );
      }
    },
  },
  {
    operation: 'Query.order',
    async attempt(caller, owner) {
      for (const { orderId } of owner.orders) {
        expectGraphqlNotFound(
          await graphql(caller, `query ($orderId: String!) { order(orderId: $orderId) { ${ORDER_FIELDS} } }`, {
            orderId,
          }),
        );
      }
    },
  },
  {
    operation: 'Query.orders',
    async attempt(caller, owner) {
      const filters = [
        { email: owner.email },
        {},
        { customer: 'lovelace' },
        ...owner.orders.map((o) => ({ orderId: o.orderId })),
      ];
      for (const variables of filters) {
        const result = await graphql(
          caller,
          `query ($email: String, $customer: String, $orderId: String) {
            orders(email: $email, customer: $customer, orderId: $orderId, first: 100) { edges { node { orderId } } } }`,
          variables,
        );
        expect(result.errors).toBeUndefined();
        expectOnlyOwn(
          result.data.orders.edges.map((e: any) => e.node.orderId),
          caller.own.orders,
          owner.orders.map((o) => o.orderId),
        );
      }
    },
  },
  {
    operation: 'Query.coverDimensions',
    async attempt(caller, owner) {
      if (sameClient(caller, owner)) return;
      const result = await graphql(
        caller,
        `query ($sku: String!) { coverDimensions(sku: $sku, pages: 24) { widthMm } }`,
        { sku: B_ONLY_SKU },
      );
      expect(result.errors?.map((e: any) => e.extensions?.code)).toEqual(['UNKNOWN_SKU']);
    },
  },
  {
    operation: 'Query.catalogue',
    async attempt(caller, owner) {
      const result = await graphql(caller, '{ catalogue(marketId: 0) { products { sku } currency { code } } }');
      expect(result.errors).toBeUndefined();
      if (!sameClient(caller, owner)) expectNoCatalogueOfB(result.data);
    },
  },
  {
    operation: 'Query.markets',
    async attempt(caller, owner) {
      const result = await graphql(
        caller,
        '{ markets(latitude: -33.87, longitude: 151.21) { results { marketIdAlt storeName } suggested { storeName } } }',
      );
      expect(result.errors).toBeUndefined();
      if (!sameClient(caller, owner)) expectNoCatalogueOfB(result.data);
    },
  },
  // --- GraphQL mutations ---
  {
    operation: 'Mutation.generateProject',
    async attempt(caller, owner) {
      for (const user of userOf(owner)) {
        const result = await graphql(
          caller,
          'mutation ($input: GenerateProjectInput!) { generateProject(input: $input) { url project { id endUserId } } }',
          { input: { ...generateBody(user), marketId: '0' } },
        );
        expect(result.errors).toBeUndefined();
        expect(new URL(result.data.generateProject.url).searchParams.get('clientId')).toBe(caller.clientId);
        caller.own.projects.add(result.data.generateProject.project.id);
      }
      if (sameClient(caller, owner)) return;
      const generate = (input: Record<string, unknown>) =>
        graphql(caller, 'mutation ($input: GenerateProjectInput!) { generateProject(input: $input) { url } }', {
          input: { ...generateBody({ userId: 'a-user' }), marketId: '0', ...input },
        });
      expect((await generate({ sku: B_ONLY_SKU })).errors?.map((e: any) => e.extensions?.code)).toEqual([
        'UNKNOWN_SKU',
      ]);
      expect((await generate({ marketId: B_ONLY_MARKET })).errors?.map((e: any) => e.extensions?.code)).toEqual([
        'UNKNOWN_MARKET',
      ]);
    },
  },
  {
    operation: 'Mutation.deleteProjects',
    async attempt(caller, owner) {
      for (const user of [owner.userId, owner.email]) {
        expectGraphqlNotFound(
          await graphql(
            caller,
            'mutation ($user: String!, $ids: [String!]!) { deleteProjects(user: $user, ids: $ids) { ids } }',
            { user, ids: owner.projects },
          ),
        );
      }
    },
  },
  {
    operation: 'Mutation.duplicateProject',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(caller, `mutation ($id: String!) { duplicateProject(id: $id) { ${PROJECT_FIELDS} } }`, { id }),
        );
    },
  },
  {
    operation: 'Mutation.movePage',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { movePage(projectId: $id, from: 1, to: 2) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.swapPhotos',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { swapPhotos(projectId: $id, a: { page: 1, slot: 0 }, b: { page: 2, slot: 0 }) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.movePhoto',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { movePhoto(projectId: $id, from: { page: 1, slot: 0 }, toPage: 2) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.setPageLayout',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { setPageLayout(projectId: $id, page: 1, layout: "full") { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.setCoverTexts',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { setCoverTexts(projectId: $id, title: "Taken") { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.addPages',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { addPages(projectId: $id, after: 0) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.removePages',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { removePages(projectId: $id, pages: [1, 2]) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.setSlotCrop',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { setSlotCrop(projectId: $id, slot: { page: 1, slot: 0 }, crop: { x: 0, y: 0, zoom: 2 }) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.setPageCaptions',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { setPageCaptions(projectId: $id, page: 1, captions: []) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.placePhoto',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { placePhoto(projectId: $id, photoId: "00000000-0000-4000-8000-000000000000", toPage: 1) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.unplacePhoto',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { unplacePhoto(projectId: $id, slot: { page: 1, slot: 0 }) { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
    },
  },
  {
    operation: 'Mutation.undo',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(caller, `mutation ($id: String!) { undo(projectId: $id) { ${PROJECT_FIELDS} } }`, { id }),
        );
    },
  },
  {
    operation: 'Mutation.redo',
    async attempt(caller, owner) {
      for (const id of owner.projects)
        expectGraphqlNotFound(
          await graphql(caller, `mutation ($id: String!) { redo(projectId: $id) { ${PROJECT_FIELDS} } }`, { id }),
        );
    },
  },
  {
    operation: 'Mutation.transferProject',
    async attempt(caller, owner) {
      for (const id of owner.projects) {
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($id: String!) { transferProject(id: $id, targetUser: "a-user") { ${PROJECT_FIELDS} } }`,
            { id },
          ),
        );
      }
    },
  },
  {
    operation: 'Mutation.printOrder',
    async attempt(caller, owner) {
      const print = (input: unknown) =>
        graphql(
          caller,
          `mutation ($input: PrintOrderInput!) { printOrder(input: $input) { message order { ${ORDER_FIELDS} } } }`,
          { input },
        );
      for (const id of owner.projects) expectGraphqlNotFound(await print(printBody(`try-${crypto.randomUUID()}`, id)));
      for (const order of owner.orders) expectGraphqlNotFound(await print(order.body));
    },
  },
  {
    operation: 'Mutation.quote',
    async attempt(caller, owner) {
      for (const projectId of owner.projects) {
        expectGraphqlNotFound(
          await graphql(caller, 'mutation ($input: QuoteInput!) { quote(input: $input) { quoteId grandTotal } }', {
            input: { marketId: '0', countryIso2: 'DE', lines: [{ projectId, quantity: 1 }] },
          }),
        );
      }
    },
  },
  {
    operation: 'Query.validateOrder',
    async attempt(caller, owner) {
      for (const id of owner.projects) {
        const result = await graphql(
          caller,
          'query ($input: PrintOrderInput!) { validateOrder(input: $input) { valid problems { code path } } }',
          {
            input: printBody(`try-${crypto.randomUUID()}`, id),
          },
        );
        expect(result.errors).toBeUndefined();
        expect(result.data.validateOrder).toEqual({
          valid: false,
          problems: [{ code: 'NOT_FOUND', path: 'projects[0].id' }],
        });
      }
    },
  },
  {
    operation: 'Mutation.confirmPayment',
    async attempt(caller, owner) {
      for (const { orderId } of owner.orders) {
        expectGraphqlNotFound(
          await graphql(
            caller,
            `mutation ($orderId: String!) { confirmPayment(orderId: $orderId) { ${ORDER_FIELDS} } }`,
            { orderId },
          ),
        );
      }
    },
  },
  {
    operation: 'Mutation.setOrderStatus',
    async attempt(caller, owner) {
      for (const { orderId, projectId } of owner.orders) {
        for (const variables of [
          { orderId, projectId: null },
          { orderId, projectId },
        ]) {
          expectGraphqlNotFound(
            await graphql(
              caller,
              `mutation ($orderId: String!, $projectId: String) { setOrderStatus(orderId: $orderId, projectId: $projectId, status: cancelled) { ${ORDER_FIELDS} } }`,
              variables,
            ),
          );
        }
      }
    },
  },
  // --- Campaigns and webhooks (the owner's campaign and delivery are made by the first entry's seed) ---
  {
    operation: 'POST /v2/campaign/auto-generate',
    seed: seedCampaignAndDelivery,
    async attempt(caller, owner) {
      // Starting a campaign makes one of the caller's own, or is refused for want of the caller's webhook.
      const response = await post(api.url, '/v2/campaign/auto-generate', { csvUrl: UNREACHABLE_CSV }, pwa(caller));
      expect([200, 409], JSON.stringify(response.body)).toContain(response.status);
      expect(JSON.stringify(response.body)).not.toContain(campaignOf(owner).campaignId);
    },
  },
  {
    operation: 'Query.campaign',
    async attempt(caller, owner) {
      expectGraphqlNotFound(
        await graphql(caller, 'query ($id: String!) { campaign(id: $id) { id status csvUrl } }', {
          id: campaignOf(owner).campaignId,
        }),
      );
    },
  },
  {
    operation: 'Query.campaigns',
    async attempt(caller, owner) {
      const result = await graphql(caller, '{ campaigns(first: 100) { edges { node { id csvUrl } } } }');
      expect(result.errors).toBeUndefined();
      expect(result.data.campaigns.edges.map((e: any) => e.node.id)).not.toContain(campaignOf(owner).campaignId);
    },
  },
  {
    operation: 'Query.partnerAccounts',
    async seed(owner) {
      const result = await graphql(
        owner,
        `mutation ($key: String!) { setPartnerAccount(input: { partner: gelato, credentials: { apiKey: $key } }) { callbackUrl } }`,
        { key: `gelato-key-of-${owner.clientId}` },
      );
      return { callbackUrl: result.data.setPartnerAccount.callbackUrl as string };
    },
    async attempt(caller, owner) {
      const { callbackUrl } = owner.seeded['Query.partnerAccounts'] as { callbackUrl: string };
      const result = await graphql(caller, '{ partnerAccounts { partner credentialHint callbackUrl } }');
      expect(result.errors).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain(callbackUrl);
    },
  },
  {
    operation: 'Mutation.setPartnerAccount',
    async attempt(caller, owner) {
      // The caller sets its own account; the owner's stays as it was (its callback URL is not answered).
      const { callbackUrl } = owner.seeded['Query.partnerAccounts'] as { callbackUrl: string };
      const result = await graphql(
        caller,
        'mutation { setPartnerAccount(input: { partner: lulu, credentials: { clientKey: "caller-key-1", clientSecret: "caller-secret-1" } }) { callbackUrl } }',
      );
      expect(result.errors).toBeUndefined();
      expect(result.data.setPartnerAccount.callbackUrl).not.toBe(callbackUrl);
    },
  },
  {
    operation: 'Mutation.removePartnerAccount',
    async attempt(caller, owner) {
      // The caller has no Prodigi account; the owner's Gelato account is not the caller's to remove.
      expectGraphqlNotFound(await graphql(caller, 'mutation { removePartnerAccount(partner: prodigi) }'));
      const { callbackUrl } = owner.seeded['Query.partnerAccounts'] as { callbackUrl: string };
      const own = await graphql(caller, '{ partnerAccounts { callbackUrl } }');
      expect(JSON.stringify(own)).not.toContain(callbackUrl);
    },
  },
  {
    operation: 'Query.webhook',
    async attempt(caller, owner) {
      const result = await graphql(caller, '{ webhook { url } }');
      expect(result.errors).toBeUndefined();
      expect(result.data.webhook?.url ?? null).not.toBe(ownerWebhookUrl(owner));
    },
  },
  {
    operation: 'Query.webhookDelivery',
    async attempt(caller, owner) {
      expectGraphqlNotFound(
        await graphql(caller, 'query ($id: String!) { webhookDelivery(id: $id) { id status } }', {
          id: campaignOf(owner).deliveryId,
        }),
      );
    },
  },
  {
    operation: 'Query.webhookDeliveries',
    async attempt(caller, owner) {
      const result = await graphql(caller, '{ webhookDeliveries(first: 100) { edges { node { id url } } } }');
      expect(result.errors).toBeUndefined();
      expect(result.data.webhookDeliveries.edges.map((e: any) => e.node.id)).not.toContain(
        campaignOf(owner).deliveryId,
      );
    },
  },
  {
    operation: 'Mutation.startCampaign',
    async attempt(caller, owner) {
      const result = await graphql(
        caller,
        'mutation ($csvUrl: String!) { startCampaign(csvUrl: $csvUrl) { message campaign { id } } }',
        { csvUrl: UNREACHABLE_CSV },
      );
      expect(JSON.stringify(result)).not.toContain(campaignOf(owner).campaignId);
    },
  },
  {
    operation: 'Mutation.setWebhook',
    async attempt(caller, owner) {
      // The caller's own webhook changes; the owner's stays (its URL is checked after the matrix, below).
      const result = await graphql(caller, 'mutation ($url: String!) { setWebhook(url: $url) { url } }', {
        url: `http://127.0.0.1:9/${caller.name}`,
      });
      expect(result.errors).toBeUndefined();
      expect(result.data.setWebhook.url).not.toBe(ownerWebhookUrl(owner));
    },
  },
  {
    operation: 'Mutation.rotateWebhookSecret',
    async attempt(caller, owner) {
      const result = await graphql(caller, 'mutation { rotateWebhookSecret { url secret } }');
      expect(result.errors).toBeUndefined();
      expect(result.data.rotateWebhookSecret.url).not.toBe(ownerWebhookUrl(owner));
    },
  },
  {
    operation: 'Mutation.enableWebhook',
    async attempt(caller, owner) {
      // The caller's own webhook is enabled (or it has none); the owner's stays as it was (snapshot below).
      const result = await graphql(caller, 'mutation { enableWebhook { url disabledAt } }');
      expect(result.errors?.[0]?.extensions?.code ?? 'none', JSON.stringify(result)).toMatch(/^(none|NOT_FOUND)$/);
      expect(JSON.stringify(result)).not.toContain(ownerWebhookUrl(owner));
    },
  },
  {
    operation: 'Mutation.setWebhookEventTypes',
    async attempt(caller, owner) {
      // The caller's own webhook's types change (or it has none to change); the owner's stay (snapshot below).
      const result = await graphql(caller, 'mutation { setWebhookEventTypes(types: ["order.line.shipped"]) }');
      expect(result.errors?.[0]?.extensions?.code ?? 'none', JSON.stringify(result)).toMatch(/^(none|NOT_FOUND)$/);
      expect(JSON.stringify(result)).not.toContain(ownerWebhookUrl(owner));
    },
  },
  {
    operation: 'Query.printRouting',
    seed: seedPrintRouting,
    async attempt(caller, owner) {
      const result = await graphql(
        caller,
        '{ printRouting { rules { match { products } printers } holdWindowSeconds } }',
      );
      expect(result.errors).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain(routingMarkOf(owner.partition));
    },
  },
  {
    operation: 'Mutation.setPrintRouting',
    async attempt(caller, owner) {
      // The caller sets its own hold window (to none); the owner's routing stays as it seeded it.
      const result = await graphql(
        caller,
        'mutation { setPrintRouting(input: { holdWindowSeconds: 0 }) { rules { match { products } } holdWindowSeconds } }',
      );
      expect(result.errors).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain(routingMarkOf(owner.partition));
      const kept = await graphql(owner.partition, '{ printRouting { rules { match { products } } } }');
      expect(JSON.stringify(kept)).toContain(routingMarkOf(owner.partition));
    },
  },
  {
    operation: 'Mutation.sendTestWebhook',
    async attempt(caller, owner) {
      const result = await graphql(caller, 'mutation { sendTestWebhook { id url } }');
      // Sent to the caller's own webhook, or refused for want of one; never to the owner's.
      if (result.errors) expect(result.errors[0].extensions.code).toBe('WEBHOOK_NOT_CONFIGURED');
      else expect(result.data.sendTestWebhook.url).not.toBe(ownerWebhookUrl(owner));
    },
  },
  {
    operation: 'Mutation.replayWebhook',
    async attempt(caller, owner) {
      expectGraphqlNotFound(
        await graphql(caller, 'mutation ($deliveryId: String!) { replayWebhook(deliveryId: $deliveryId) { id } }', {
          deliveryId: campaignOf(owner).deliveryId,
        }),
      );
    },
  },
  {
    operation: 'Subscription.campaignProgress',
    async attempt(caller, owner) {
      const socket = createClient({
        url: `${api.url.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { accessKey: caller.credentials.accessKey, accessSecret: caller.credentials.accessSecret },
        retryAttempts: 0,
      });
      try {
        const outcome = await new Promise<{ data: unknown[]; errors: any[] }>((resolve) => {
          const seen = { data: [] as unknown[], errors: [] as any[] };
          socket.subscribe(
            {
              query: 'subscription ($id: String!) { campaignProgress(id: $id) { campaignId status } }',
              variables: { id: campaignOf(owner).campaignId },
            },
            {
              next: (result) => (result.errors ? seen.errors.push(...result.errors) : seen.data.push(result.data)),
              error: (error) =>
                resolve({ ...seen, errors: [...seen.errors, ...(Array.isArray(error) ? error : [error])] }),
              complete: () => resolve(seen),
            },
          );
        });
        expect(outcome.data).toEqual([]);
        expect(
          outcome.errors.map((e) => e.extensions?.code),
          JSON.stringify(outcome.errors),
        ).toEqual(['NOT_FOUND']);
      } finally {
        await socket.dispose();
      }
    },
  },
];

const SUBSCRIPTIONS: SubscriptionProbe[] = [
  {
    operation: 'Subscription.projectStatusChanged',
    query:
      'subscription ($projectId: String, $user: String) { projectStatusChanged(projectId: $projectId, user: $user) { projectId user status { project photos } } }',
    variables: (owner) => [
      ...owner.projects.map((projectId) => ({ projectId })),
      { user: owner.userId },
      { user: owner.email },
    ],
    ownEvent: (variables, status) => ({
      subjectType: 'project',
      subjectId: String(variables.projectId ?? `p-own${crypto.randomUUID().slice(0, 8)}`),
      status,
      detail: { photos: 'none', user: variables.user ?? 'a-user' },
    }),
    statusOf: (payload) => payload.projectStatusChanged.status.project,
  },
  {
    operation: 'Subscription.bookRevised',
    query: 'subscription ($projectId: String!) { bookRevised(projectId: $projectId) { projectId revision edit } }',
    variables: (owner) => owner.projects.map((projectId) => ({ projectId })),
    // A revision's `edit` stands in for the status the other probes compare.
    ownEvent: (variables, status) => ({
      subjectType: 'book',
      subjectId: String(variables.projectId),
      status: 'revised',
      detail: { revision: 1, edit: status },
    }),
    statusOf: (payload) => payload.bookRevised.edit,
  },
  {
    operation: 'Subscription.orderStatusChanged',
    query: 'subscription ($orderId: String) { orderStatusChanged(orderId: $orderId) { orderId projectId status } }',
    variables: (owner) => [...owner.orders.map(({ orderId }) => ({ orderId })), {}],
    ownEvent: (variables, status) => {
      const orderId = String(variables.orderId ?? 'a-order');
      return { subjectType: 'order', subjectId: `${orderId}/p-own`, status, detail: { orderId, projectId: 'p-own' } };
    },
    statusOf: (payload) => payload.orderStatusChanged.status,
  },
  {
    operation: 'Subscription.statusEvents',
    query:
      'subscription ($subjectType: String, $subjectId: String) { statusEvents(subjectType: $subjectType, subjectId: $subjectId) { subjectType subjectId status } }',
    variables: (owner) => [
      ...owner.projects.map((subjectId) => ({ subjectType: 'project', subjectId })),
      { subjectType: 'order' },
      {},
    ],
    ownEvent: (variables, status) => ({
      subjectType: String(variables.subjectType ?? 'project'),
      subjectId: String(variables.subjectId ?? `own-${crypto.randomUUID()}`),
      status,
      detail: { photos: 'none', user: 'a-user' },
    }),
    statusOf: (payload) => payload.statusEvents.status,
  },
];

describe('tenancy matrix: one partition against another partition ids, end users and subscriptions', () => {
  const partitions: Record<'aDev' | 'aProd' | 'bDev' | 'bProd', Partition> = {} as never;
  const owners: Record<'bDev' | 'bProd', Owner> = {} as never;
  const sockets: WsClient[] = [];

  const partition = (client: IssuedClient, env: Env, name: string): Partition => ({
    name,
    clientId: client.clientId,
    clientName: client.name,
    env,
    credentials: client.credentials[env],
    own: { projects: new Set(), orders: new Set() },
  });

  /** The owner's rows as stored, for "unchanged afterwards"; its client's catalogue too. */
  async function snapshotOf(owner: Owner): Promise<Record<string, unknown[]>> {
    const db = (await api.orm()).em.getConnection();
    const { clientId, env } = owner.partition;
    const rows = (sql: string, params: unknown[] = [clientId, env]) => db.execute(sql, params);
    return {
      endUsers: await rows('SELECT * FROM end_users WHERE client_id = ? AND env = ? ORDER BY id'),
      projects: await rows('SELECT * FROM projects WHERE client_id = ? AND env = ? ORDER BY id'),
      photos: await rows(
        'SELECT ph.* FROM photos ph JOIN projects p ON p.id = ph.project_id WHERE p.client_id = ? AND p.env = ? ORDER BY ph.id',
      ),
      orders: await rows('SELECT * FROM orders WHERE client_id = ? AND env = ? ORDER BY id'),
      lines: await rows(
        'SELECT l.* FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.client_id = ? AND o.env = ? ORDER BY l.id',
      ),
      statusEvents: await rows('SELECT * FROM status_events WHERE client_id = ? AND env = ? ORDER BY id'),
      // failing_since is the owner's own deliveries to its (unreachable) endpoint, retried in the background.
      webhookEndpoints: (await rows('SELECT * FROM webhook_endpoints WHERE client_id = ? AND env = ? ORDER BY id')).map(
        ({ failing_since: _, ...endpoint }: Record<string, unknown>) => endpoint,
      ),
      partnerAccounts: await rows('SELECT * FROM partner_accounts WHERE client_id = ? AND env = ? ORDER BY id'),
      events: await rows('SELECT * FROM events WHERE client_id = ? AND env = ? ORDER BY position'),
      markets: await rows('SELECT * FROM markets WHERE client_id = ? ORDER BY id', [clientId]),
      products: await rows('SELECT * FROM products WHERE client_id = ? ORDER BY id', [clientId]),
    };
  }

  /**
   * Waits until no project of the owner's partition is still being built. A pair whose caller is
   * this partition (bDev against bProd) generates projects in it, and their builds (book, preview,
   * status events) finish in the background, possibly after that pair's tests: a snapshot taken
   * meanwhile would count a build's own completion as a change made by the next caller.
   */
  async function settledPartition(owner: Owner): Promise<void> {
    const db = (await api.orm()).em.getConnection();
    const { clientId, env } = owner.partition;
    await waitFor(
      async () => {
        const [{ unbuilt }] = await db.execute(
          "SELECT count(*)::int AS unbuilt FROM projects WHERE client_id = ? AND env = ? AND status IN ('created', 'building')",
          [clientId, env],
        );
        // Campaigns start on a queue: the seeded one may still be importing its (unreachable) file.
        const [{ running }] = await db.execute(
          "SELECT count(*)::int AS running FROM campaigns WHERE client_id = ? AND env = ? AND status = 'importing'",
          [clientId, env],
        );
        return unbuilt === 0 && running === 0;
      },
      120_000,
      `the builds and campaigns of ${owner.partition.name} to finish`,
    );
  }

  /** B's rows in one partition, made through the API: two editable projects, an order, and its project. */
  async function seedOwner(owner: Partition, orderId: string, sandbox: boolean): Promise<Owner> {
    const auth = pwa(owner);
    const userId = 'b-user';
    const email = 'b.shopper@example.com';
    // The smallest book of the catalogue: the sandbox printer gets a real render, at the least cost.
    const sku = 'PB-SC-15-S';
    const byUserId = await editableProject(api, auth, { userId, sku });
    const byEmail = await editableProject(api, auth, { email, sku });
    const ordered = await editableProject(api, auth, { email, sku });
    // Live: waiting for its payment (stays put). Sandbox: paid, printed by the sandbox printer to the end.
    const body = { ...printBody(orderId, ordered), ...(sandbox ? {} : { paymentPending: true }) };
    const printed = await post(api.url, '/v2/print', body, auth);
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
    const finalStatus = sandbox ? 'complete' : 'waiting';
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/project/status?id=${ordered}`, { headers: auth })).body.status?.order ===
        finalStatus,
      120_000,
      `${owner.name} order ${finalStatus}`,
    );
    const [line] = await (await api.orm()).em
      .getConnection()
      .execute('SELECT printer_job_id FROM order_lines WHERE project_id = ?', [ordered]);
    owner.own.projects = new Set([byUserId, byEmail, ordered]);
    owner.own.orders = new Set([orderId]);
    const seeded: Record<string, unknown> = {};
    for (const probe of PROBES) if (probe.seed) seeded[probe.operation] = await probe.seed(owner);
    // Projects a probe's seed made are the owner's too: probed like the others, counted as the owner's.
    const seededProjects = Object.values(seeded).flatMap((value) => (value as { projects?: string[] }).projects ?? []);
    for (const id of seededProjects) owner.own.projects.add(id);
    return {
      partition: owner,
      userId,
      email,
      projects: [byUserId, byEmail, ordered, ...seededProjects],
      orders: [{ orderId, projectId: ordered, body }],
      jobId: line?.printer_job_id ?? 'no-job-yet',
      seeded,
    };
  }

  beforeAll(async () => {
    api = await startTestService({ SANDBOX_PRINTER_STEP: '50ms', PSP_WEBHOOK_SECRETS: `local=${SECRET}` });
    const a = await api.createClient('Shop A');
    const b = await api.createClient('Shop B');
    // B's catalogue has a product and a market A's has not.
    const catalogue = structuredClone(await loadDemoCatalogue());
    catalogue.products[0].sku = B_ONLY_SKU;
    // The owners' books are ordered with a photo or two: waived, as createClient waives A's (test/support/photo-minimum.ts).
    for (const product of catalogue.products) product.specifications.min.photos = 0;
    const market = catalogue.markets[catalogue.markets.length - 1];
    market.marketIdAlt = B_ONLY_MARKET;
    market.storeName = Object.fromEntries(
      Object.keys(market.storeName).map((language) => [language, B_ONLY_STORE]),
    ) as typeof market.storeName;
    await replaceCatalogue((await api.orm()).em.fork(), b.clientId, catalogue);

    partitions.aDev = partition(a, 'dev', 'A dev');
    partitions.aProd = partition(a, 'prod', 'A prod');
    partitions.bDev = partition(b, 'dev', 'B dev');
    partitions.bProd = partition(b, 'prod', 'B prod');
    [owners.bDev, owners.bProd] = await Promise.all([
      seedOwner(partitions.bDev, 'b-order-dev', true),
      seedOwner(partitions.bProd, 'b-order-prod', false),
    ]);
    expect(owners.bDev.jobId).toMatch(/^sandbox/);
  }, 300_000);
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.dispose()));
  });
  afterAll(() => api?.stop());

  const PAIRS: [caller: keyof typeof partitions, owner: keyof typeof owners][] = [
    ['aDev', 'bDev'],
    ['aProd', 'bProd'],
    ['aDev', 'bProd'],
    ['aProd', 'bDev'],
    ['bDev', 'bProd'],
    ['bProd', 'bDev'],
  ];

  it('refuses a query of tenant-owned rows from an EntityManager that names no tenant, unless it says ACROSS_TENANTS', async () => {
    const root = api.service.orm.em;
    for (const entity of [
      Project,
      Order,
      OrderLine,
      Photo,
      EndUser,
      StatusEvent,
      Product,
      Market,
      Campaign,
      CampaignRow,
      WebhookEndpoint,
      WebhookDelivery,
      WebhookAttempt,
    ]) {
      await expect(root.fork().count(entity, {}), entity.name).rejects.toThrow(
        `No arguments provided for filter '${TENANT_FILTER}'`,
      );
    }
    expect(await root.fork().count(Project, { client: partitions.bDev.clientId }, ACROSS_TENANTS)).toBe(
      owners.bDev.projects.length + owners.bProd.projects.length,
    );
    const scoped = scopeToTenant(root.fork(), partitions.bProd);
    expect((await scoped.find(Project, {})).map((p) => p.id).sort()).toEqual([...owners.bProd.projects].sort());
  });

  it('covers every REST operation of the OpenAPI document', async () => {
    const doc = (await request(api.url, 'GET', '/openapi.json')).body;
    const published = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const covered = PROBES.map((p) => p.operation).filter((o) => !isGraphql(o));
    expect(published.filter((o) => !(o in WITHOUT_TENANT_DATA)).sort()).toEqual(covered.sort());
    expect(published).toEqual(expect.arrayContaining(Object.keys(WITHOUT_TENANT_DATA)));
  });

  it('covers every query, mutation and subscription of schema/schema.graphql', () => {
    const schema = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
      (t): t is GraphQLObjectType => !!t,
    );
    const operations = roots.flatMap((root) => Object.keys(root.getFields()).map((field) => `${root.name}.${field}`));
    const covered = [...PROBES.map((p) => p.operation).filter(isGraphql), ...SUBSCRIPTIONS.map((s) => s.operation)];
    expect(operations.sort()).toEqual(covered.sort());
  });

  describe.each(PAIRS)('%s against %s', (callerKey, ownerKey) => {
    let before: Record<string, unknown[]>;
    beforeAll(async () => {
      await settledPartition(owners[ownerKey]);
      before = await snapshotOf(owners[ownerKey]);
    }, 150_000);

    it.each(PROBES.map((probe) => [probe.operation, probe] as const))(
      '%s finds nothing of the owner',
      async (_operation, probe) => {
        await probe.attempt(partitions[callerKey], owners[ownerKey]);
      },
    );

    it("leaves the owner's rows as they were", async () => {
      expect(await snapshotOf(owners[ownerKey])).toEqual(before);
    });
  });

  describe.each(PAIRS)('subscriptions of %s to the ids of %s', (callerKey, ownerKey) => {
    it.each(SUBSCRIPTIONS.map((s) => [s.operation, s] as const))(
      '%s delivers none of the owner changes',
      async (_operation, subscription) => {
        const caller = partitions[callerKey];
        const owner = owners[ownerKey];
        const socket = createClient({
          url: `${api.url.replace(/^http/, 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          connectionParams: { accessKey: caller.credentials.accessKey, accessSecret: caller.credentials.accessSecret },
          lazy: true,
          retryAttempts: 0,
        });
        sockets.push(socket);
        const orm = await api.orm();
        const commitAs = (tenant: Partition, change: StatusChange) =>
          orm.em
            .fork()
            .transactional((tx) => recordStatusChange(tx, { clientId: tenant.clientId, env: tenant.env }, change));

        const listeners = subscription.variables(owner).map((variables) => {
          const statuses: string[] = [];
          const errors: unknown[] = [];
          socket.subscribe(
            { query: subscription.query, variables },
            {
              next: (result) =>
                result.errors ? errors.push(...result.errors) : statuses.push(subscription.statusOf(result.data)),
              error: (error) => errors.push(error),
              complete: () => undefined,
            },
          );
          return { variables, statuses, errors };
        });
        /** The caller's own event, committed until this subscription delivers it (it may not be registered yet). */
        const deliverOwn = async (listener: (typeof listeners)[number], status: string) => {
          await waitFor(
            async () => {
              if (!listener.statuses.includes(status))
                await commitAs(caller, subscription.ownEvent(listener.variables, status));
              await new Promise((resolve) => setTimeout(resolve, 100));
              return listener.statuses.includes(status) || undefined;
            },
            10_000,
            `${subscription.operation}(${JSON.stringify(listener.variables)}) to deliver the caller's own "${status}"; errors: ${JSON.stringify(listener.errors)}`,
          );
        };
        for (const listener of listeners) await deliverOwn(listener, 'probe-before');

        // The owner's statuses change: its projects (transferred to the same user: a status event
        // each), its orders through the API where the table allows, and an event of each order line.
        for (const id of owner.projects.slice(0, 2)) {
          const user = id === owner.projects[0] ? owner.userId : owner.email;
          expect(
            (await post(api.url, '/v2/project/transfer', { id, targetUser: user }, pwa(owner.partition))).status,
          ).toBe(200);
        }
        for (const { orderId, projectId } of owner.orders) {
          await graphql(
            owner.partition,
            `mutation { setOrderStatus(orderId: "${orderId}", status: refunded) { orderId } }`,
          );
          await commitAs(owner.partition, {
            subjectType: 'order',
            subjectId: `${orderId}/${projectId}`,
            status: 'owner-change',
            detail: { orderId, projectId },
          });
        }
        await commitAs(owner.partition, {
          subjectType: 'project',
          subjectId: owner.projects[2],
          status: 'owner-change',
          detail: { photos: 'none', user: owner.email },
        });

        // Events reach each subscription in commit order: once the caller's later event arrived, any
        // of the owner's would have arrived before it.
        for (const listener of listeners) await deliverOwn(listener, 'probe-after');
        for (const listener of listeners) {
          expect(listener.errors, JSON.stringify(listener.variables)).toEqual([]);
          expect(
            listener.statuses.filter((status) => !status.startsWith('probe-')),
            JSON.stringify(listener.variables),
          ).toEqual([]);
        }
      },
    );
  });
});
