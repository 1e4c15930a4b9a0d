import { createClient, type Client as SocketClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { OrderLine, Project } from '../../../src/db/entities';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { createRequestContext } from '../../../src/services/context';
import { recordStatusChange } from '../../../src/events/status-event-log';
import { transferProject } from '../../../src/services/projects/project-lifecycle';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import {
  editorConnectionParams,
  editorCredentialsFor,
  editorCredentialsOf,
  editorHeaders,
  type EditorCredentials,
} from '../../support/editor-link';
import { waitFor } from '../../support/wait';

type GraphqlAnswer = { status?: number; data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };

/** docs/api.md, Editor URL: the close code of an editor socket whose link ended. */
const EDITOR_LINK_ENDED = 4410;

const SET_TITLE = `mutation ($id: String!, $title: String!) { setCoverTexts(projectId: $id, title: $title) { cover { title } } }`;
const READ = `query ($id: String!) { project(id: $id) { id endUserId status { project } preview } }`;
const WATCH = `subscription ($id: String) { projectStatusChanged(projectId: $id) { projectId user status { project } } }`;

/** One GraphQL request with the editor link's credentials, as the editor page sends it. */
async function overHttp(
  api: TestService,
  link: EditorCredentials,
  query: string,
  variables: Record<string, unknown>,
): Promise<GraphqlAnswer> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...editorHeaders(link) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, ...((await response.json()) as GraphqlAnswer) };
}

/** An editor socket, and the close code it ended with (once it ended). */
interface EditorSocket {
  client: SocketClient;
  closedWith(): number | undefined;
  /** Every `next` payload of its subscriptions, in order. */
  received: unknown[];
}

/** An editor socket: the session is opened at connection_init and then lives as long as the socket, or its link. */
async function editorSocket(api: TestService, link: EditorCredentials): Promise<EditorSocket> {
  let code: number | undefined;
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  const client = createClient({
    url: `${api.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: editorConnectionParams(link),
    retryAttempts: 0,
    lazy: false,
    on: { connected: () => connected(), closed: (event) => (code ??= (event as { code: number }).code) },
    onNonLazyError: () => {},
  });
  await ready;
  return { client, closedWith: () => code, received: [] };
}

function overSocket(socket: EditorSocket, query: string, variables: Record<string, unknown>): Promise<GraphqlAnswer> {
  return new Promise((resolve, reject) => {
    let answer: GraphqlAnswer = {};
    socket.client.subscribe(
      { query, variables },
      { next: (value) => (answer = value as GraphqlAnswer), error: reject, complete: () => resolve(answer) },
    );
  });
}

/**
 * Subscribes to the project's status on the socket and waits until an event of the project (as its
 * owner `user`'s) reaches it: from then on the subscription listens. Returns how many arrived.
 */
async function watch(
  api: TestService,
  clientId: string,
  socket: EditorSocket,
  projectId: string,
  user: string,
): Promise<number> {
  socket.client.subscribe(
    { query: WATCH, variables: { id: projectId } },
    { next: (value) => socket.received.push(value), error: () => {}, complete: () => {} },
  );
  const orm = await api.orm();
  await waitFor(
    async () => {
      if (socket.received.length > 0) return true;
      await orm.em
        .fork()
        .transactional((tx) =>
          recordStatusChange(
            tx,
            { clientId, env: 'dev' },
            { subjectType: 'project', subjectId: projectId, status: 'editable', detail: { photos: 'idle', user } },
          ),
        );
      return false;
    },
    10_000,
    'the subscription to listen',
  );
  return socket.received.length;
}

const codeOf = (answer: GraphqlAnswer) => answer.errors?.[0]?.extensions?.code;
const closedWithLinkEnded = (socket: EditorSocket, what: string) =>
  waitFor(async () => socket.closedWith() === EDITOR_LINK_ENDED, 10_000, what);

describe("an editor link past its project's PROJECT_TTL", () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ PROJECT_TTL: '8s' });
    client = await api.createClient('Expiring shop');
    auth = serviceHeader(client.credentials.dev);
  });
  afterAll(async () => api?.stop());

  it('edits until the project expires; then the socket opened before is closed with 4410 and a new request is refused with 401', async () => {
    const projectId = await editableProject(api, auth, { userId: 'expiring-user' });
    const link = await editorCredentialsFor(api.url, auth, projectId);
    const socket = await editorSocket(api, link);
    try {
      expect(
        (await overSocket(socket, SET_TITLE, { id: projectId, title: 'Before expiry' })).data?.setCoverTexts.cover
          .title,
      ).toBe('Before expiry');
      const heard = await watch(api, client.clientId, socket, projectId, 'expiring-user');
      await waitFor(
        async () =>
          (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status
            ?.project === 'expired',
        20_000,
        'status expired',
      );

      // Nothing happens to an expiring project (no event): the socket's session ends at its expiry.
      await closedWithLinkEnded(socket, 'the socket to close at the expiry');
      expect(socket.received).toHaveLength(heard);
      const fresh = await overHttp(api, link, SET_TITLE, { id: projectId, title: 'After expiry' });
      expect(fresh.status).toBe(401);
      expect(codeOf(fresh)).toBe('UNAUTHENTICATED');

      const orm = await api.orm();
      const stored = await orm.em.fork().findOneOrFail(Project, { id: projectId }, { populate: ['book'] });
      expect(stored.book!.cover.title).toBe('Before expiry');
      expect(stored.title).toBe('Before expiry');
    } finally {
      await socket.client.dispose();
    }
  });
});

describe('an editor link of an ordered or deleted project', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ SANDBOX_PRINTER_STEP: '1h' });
    client = await api.createClient('Ordering shop');
    auth = serviceHeader(client.credentials.dev);
  });
  afterAll(async () => api?.stop());

  it('cannot edit a project that was ordered, even while its book is editable again (an order that replaced its photos)', async () => {
    const projectId = await editableProject(api, auth, { userId: 'ordered-user' });
    const link = await editorCredentialsFor(api.url, auth, projectId);
    const orm = await api.orm();
    // What an order with new photos leaves between its rebuild and the fulfilment taking the book.
    await orm.em.fork().nativeUpdate(Project, { id: projectId }, { ordered: true, status: 'editable' });
    const answer = await overHttp(api, link, SET_TITLE, { id: projectId, title: 'Sneaked in' });
    expect(codeOf(answer)).toBe('PROJECT_ORDERED');
    const stored = await orm.em.fork().findOneOrFail(Project, { id: projectId }, { populate: ['book'] });
    expect(stored.book!.cover.title).not.toBe('Sneaked in');
  });

  it("an order ends the link's edits at once, over HTTP and on the socket opened before; the customer still sees the book as ordered", async () => {
    const projectId = await editableProject(api, auth, { userId: 'ordering-user' });
    const link = await editorCredentialsFor(api.url, auth, projectId);
    const socket = await editorSocket(api, link);
    try {
      await watch(api, client.clientId, socket, projectId, 'ordering-user');
      expect((await post(api.url, '/v2/print', printBody('order-ends-edits', projectId), auth)).status).toBe(200);
      await waitFor(
        async () => socket.received.some((m: any) => m.data?.projectStatusChanged.status.project === 'ordering'),
        10_000,
        'the ordering event',
      );

      expect(codeOf(await overSocket(socket, SET_TITLE, { id: projectId, title: 'After the order' }))).toBe(
        'PROJECT_ORDERED',
      );
      const overHttpEdit = await overHttp(api, link, SET_TITLE, { id: projectId, title: 'After the order' });
      expect(overHttpEdit.status).toBe(200); // GraphQL answers the refusal in its body
      expect(codeOf(overHttpEdit)).toBe('PROJECT_ORDERED');
      // Reading stays: the editor shows the book as ordered.
      expect((await overHttp(api, link, READ, { id: projectId })).data?.project.status.project).toBe('ordering');
      expect((await overSocket(socket, READ, { id: projectId })).data?.project.status.project).toBe('ordering');
      expect(socket.closedWith()).toBeUndefined();
    } finally {
      await socket.client.dispose();
    }
  });

  it('a delete closes the socket opened before with 4410 before it hears the event, and the link answers 401', async () => {
    const projectId = await editableProject(api, auth, { userId: 'deleting-user' });
    const link = await editorCredentialsFor(api.url, auth, projectId);
    const socket = await editorSocket(api, link);
    try {
      expect(codeOf(await overSocket(socket, SET_TITLE, { id: projectId, title: 'Open' }))).toBeUndefined();
      const heard = await watch(api, client.clientId, socket, projectId, 'deleting-user');
      const deleted = await post(
        api.url,
        '/v2/project/delete',
        { user: 'deleting-user', type: 'sync', ids: [projectId] },
        auth,
      );
      expect(deleted.status).toBe(200);
      await closedWithLinkEnded(socket, 'the socket to close at the delete');
      // The socket never showed the deleted project's event (nor anything after it).
      expect(socket.received).toHaveLength(heard);
      const after = await overHttp(api, link, READ, { id: projectId });
      expect(after.status).toBe(401);
      expect(codeOf(after)).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(after)).not.toContain('/files/');
    } finally {
      await socket.client.dispose();
    }
  });

  it('edits racing an order: none is saved after the order, and the order records the book as it was ordered', async () => {
    const projectId = await editableProject(api, auth, { userId: 'racing-user' });
    const link = await editorCredentialsFor(api.url, auth, projectId);
    let ordered = false;
    const outcomes: { title: string; code?: string }[] = [];
    // Four editor tabs saving titles as fast as they can, while the shop places the order.
    const tab = async (name: string) => {
      for (let i = 0; !ordered || i < 3; i++) {
        const title = `${name} ${i}`;
        const answer = await overHttp(api, link, SET_TITLE, { id: projectId, title });
        outcomes.push({ title, code: codeOf(answer) });
        if (codeOf(answer) === 'PROJECT_ORDERED') return;
      }
    };
    const tabs = ['A', 'B', 'C', 'D'].map(tab);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const printed = await post(api.url, '/v2/print', printBody('race-order', projectId), auth);
    ordered = true;
    await Promise.all(tabs);
    expect(printed.status).toBe(200);

    expect(outcomes.some((o) => o.code === undefined)).toBe(true);
    expect(outcomes.filter((o) => o.code !== undefined && o.code !== 'PROJECT_ORDERED')).toEqual([]);
    const orm = await api.orm();
    const stored = await orm.em.fork().findOneOrFail(Project, { id: projectId }, { populate: ['book'] });
    const line = await orm.em.fork().findOneOrFail(OrderLine, { project: projectId });
    // The last saved edit is the book the order took: nothing was written after it.
    expect(line.title).toBe(stored.book!.cover.title);
    expect(stored.title).toBe(stored.book!.cover.title);
    expect(outcomes.filter((o) => o.code === undefined).map((o) => o.title)).toContain(line.title);
  });
});

describe('the editor link follows ownership', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    client = await api.createClient('Transferring shop');
    auth = serviceHeader(client.credentials.dev);
  });
  afterAll(async () => api?.stop());

  it("a transfer ends the old owner's link over HTTP and closes its socket before the event, and the answer's link is the new owner's", async () => {
    const projectId = await editableProject(api, auth, { email: 'giver@example.com' });
    const old = await editorCredentialsFor(api.url, auth, projectId);
    const socket = await editorSocket(api, old);
    try {
      const heard = await watch(api, client.clientId, socket, projectId, 'giver@example.com');
      expect((await overHttp(api, old, READ, { id: projectId })).data?.project.endUserId).toBe('giver@example.com');

      const transferred = await post(
        api.url,
        '/v2/project/transfer',
        { id: projectId, targetUser: 'taker@example.com' },
        auth,
      );
      expect(transferred.status).toBe(200);
      expect(transferred.body.endUserId).toBe('taker@example.com');
      const fresh = editorCredentialsOf(transferred.body.link);
      expect(fresh.projectId).toBe(projectId);
      expect(fresh.editorKey).not.toBe(old.editorKey);

      await closedWithLinkEnded(socket, "the old link's socket to close");
      // The transfer's own event names the new owner: the old socket never got it.
      expect(socket.received).toHaveLength(heard);
      expect(JSON.stringify(socket.received)).not.toContain('taker@example.com');

      for (const query of [READ, SET_TITLE]) {
        const refused = await overHttp(api, old, query, { id: projectId, title: 'Old owner' });
        expect(refused.status).toBe(401);
        expect(codeOf(refused)).toBe('UNAUTHENTICATED');
        expect(JSON.stringify(refused)).not.toContain('taker@example.com');
      }
      // The old link's socket cannot come back either.
      const reopened = createClient({
        url: `${api.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: editorConnectionParams(old),
        retryAttempts: 0,
      });
      const refusedSocket = await new Promise<any>((resolve) =>
        reopened.subscribe(
          { query: READ, variables: { id: projectId } },
          { next: resolve, error: resolve, complete: () => {} },
        ),
      );
      expect(refusedSocket.code).toBe(4403);
      await reopened.dispose();

      // The new owner's link reads and edits, over HTTP and on a socket.
      expect((await overHttp(api, fresh, READ, { id: projectId })).data?.project.endUserId).toBe('taker@example.com');
      expect(
        (await overHttp(api, fresh, SET_TITLE, { id: projectId, title: 'New owner' })).data?.setCoverTexts.cover.title,
      ).toBe('New owner');
      const newSocket = await editorSocket(api, fresh);
      expect((await overSocket(newSocket, READ, { id: projectId })).data?.project.endUserId).toBe('taker@example.com');
      await newSocket.client.dispose();

      // The new owner's list hands out the same working link; the old owner's no longer lists it.
      const listed = await request(api.url, 'GET', '/v2/project/list?user=taker%40example.com', { headers: auth });
      expect(listed.body.data.map((p: any) => p.link)).toEqual([transferred.body.link]);
      expect(
        (await request(api.url, 'GET', '/v2/project/list?user=giver%40example.com', { headers: auth })).body.data,
      ).toEqual([]);
    } finally {
      await socket.client.dispose();
    }
  });

  it('GraphQL transferProject does the same', async () => {
    const projectId = await editableProject(api, auth, { userId: 'graphql-giver' });
    const old = await editorCredentialsFor(api.url, auth, projectId);
    const socket = await editorSocket(api, old);
    try {
      const heard = await watch(api, client.clientId, socket, projectId, 'graphql-giver');
      const answer = await post(
        api.url,
        '/graphql',
        {
          query: 'mutation ($id: String!) { transferProject(id: $id, targetUser: "graphql-taker") { link endUserId } }',
          variables: { id: projectId },
        },
        auth,
      );
      const fresh = editorCredentialsOf(answer.body.data.transferProject.link);
      expect(fresh.editorKey).not.toBe(old.editorKey);
      await closedWithLinkEnded(socket, "the old link's socket to close");
      expect(socket.received).toHaveLength(heard);
      expect((await overHttp(api, old, READ, { id: projectId })).status).toBe(401);
      expect((await overHttp(api, fresh, READ, { id: projectId })).data?.project.endUserId).toBe('graphql-taker');
    } finally {
      await socket.client.dispose();
    }
  });

  it('a transfer committed by another process closes the socket too: the status event, heard through LISTEN, ends it', async () => {
    const projectId = await editableProject(api, auth, { userId: 'elsewhere-giver' });
    const old = await editorCredentialsFor(api.url, auth, projectId);
    const socket = await editorSocket(api, old);
    try {
      const heard = await watch(api, client.clientId, socket, projectId, 'elsewhere-giver');
      // The test's own ORM and pool stand for another process: nothing of it is in the service's memory.
      const orm = await api.orm();
      const ctx = createRequestContext(
        orm.em,
        { clientId: client.clientId, clientName: client.name, env: 'dev' },
        'other-process',
      );
      await transferProject(ctx, { id: projectId, targetUser: 'elsewhere-taker' });
      await closedWithLinkEnded(socket, 'the socket to close');
      expect(socket.received).toHaveLength(heard);
    } finally {
      await socket.client.dispose();
    }
  });

  it('a socket whose link ended while no event reached it is closed at its next operation, which is refused', async () => {
    const projectId = await editableProject(api, auth, { userId: 'quiet-giver' });
    const old = await editorCredentialsFor(api.url, auth, projectId);
    const socket = await editorSocket(api, old);
    try {
      // A new key written without a status event: what a socket authenticated just before a transfer committed would miss.
      const orm = await api.orm();
      await orm.em.fork().nativeUpdate(Project, { id: projectId }, { editorKeySeed: 'rotated-without-an-event' });
      await expect(overSocket(socket, READ, { id: projectId })).rejects.toBeDefined();
      await closedWithLinkEnded(socket, 'the socket to close');
    } finally {
      await socket.client.dispose();
    }
  });

  it('a transfer to the same owner keeps the link; a duplicate has a link of its own, which opens the copy only', async () => {
    const projectId = await editableProject(api, auth, { userId: 'keeper' });
    const link = await editorCredentialsFor(api.url, auth, projectId);
    const same = await post(api.url, '/v2/project/transfer', { id: projectId, targetUser: 'keeper' }, auth);
    expect(editorCredentialsOf(same.body.link)).toEqual(link);
    expect((await overHttp(api, link, READ, { id: projectId })).data?.project.id).toBe(projectId);

    const copy = await post(api.url, '/v2/project/duplicate', { id: projectId }, auth);
    expect(copy.status).toBe(200);
    const copyLink = editorCredentialsOf(copy.body.link);
    expect(copyLink.projectId).not.toBe(projectId);
    expect((await overHttp(api, copyLink, READ, { id: copyLink.projectId })).data?.project.id).toBe(copyLink.projectId);
    // Each key opens its own project only, whichever id it is sent with.
    expect((await overHttp(api, { projectId, editorKey: copyLink.editorKey }, READ, { id: projectId })).status).toBe(
      401,
    );
    expect(
      (
        await overHttp(api, { projectId: copyLink.projectId, editorKey: link.editorKey }, READ, {
          id: copyLink.projectId,
        })
      ).status,
    ).toBe(401);
    // The id alone, as the old links carried it, opens nothing.
    const idAlone = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-editor-project': projectId },
      body: JSON.stringify({ query: READ, variables: { id: projectId } }),
    });
    expect(idAlone.status).toBe(401);
  });
});
