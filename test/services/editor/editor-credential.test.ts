import { createClient, type Client as SocketClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { OrderLine, Project } from '../../../src/db/entities';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { waitFor } from '../../support/wait';

type GraphqlAnswer = { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };

const SET_TITLE = `mutation ($id: String!, $title: String!) { setCoverTexts(projectId: $id, title: $title) { cover { title } } }`;

/** One GraphQL request with the editor link's credential, as the editor page sends it. */
async function overHttp(api: TestService, projectId: string, query: string, variables: Record<string, unknown>): Promise<GraphqlAnswer> {
  const response = await fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-editor-project': projectId },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphqlAnswer;
}

/** An editor socket: the session is opened once, at connection_init, and then lives as long as the socket. */
function editorSocket(api: TestService, projectId: string): SocketClient {
  return createClient({ url: `${api.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { editorProject: projectId }, retryAttempts: 0, lazy: false });
}

function overSocket(socket: SocketClient, query: string, variables: Record<string, unknown>): Promise<GraphqlAnswer> {
  return new Promise((resolve, reject) => {
    let answer: GraphqlAnswer = {};
    socket.subscribe({ query, variables }, { next: (value) => (answer = value as GraphqlAnswer), error: reject, complete: () => resolve(answer) });
  });
}

const codeOf = (answer: GraphqlAnswer) => answer.errors?.[0]?.extensions?.code;

describe('an editor link past its project\'s PROJECT_TTL', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ PROJECT_TTL: '8s' });
    client = await api.createClient('Expiring shop');
    auth = serviceHeader(client.credentials.dev);
  });
  afterAll(async () => api?.stop());

  it('edits until the project expires, then neither a new request nor a socket opened before can edit', async () => {
    const projectId = await editableProject(api, auth, { userId: 'expiring-user' });
    const socket = editorSocket(api, projectId);
    try {
      expect((await overSocket(socket, SET_TITLE, { id: projectId, title: 'Before expiry' })).data?.setCoverTexts.cover.title).toBe('Before expiry');
      await waitFor(async () => (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status?.project === 'expired', 20_000, 'status expired');

      // The socket's session was opened while the project was open: the write-time check refuses it.
      const late = await overSocket(socket, SET_TITLE, { id: projectId, title: 'After expiry' });
      expect(codeOf(late)).toBe('PROJECT_EXPIRED');
      expect(late.errors![0].message).toMatch(/expired/);
      // A new request with the link opens no session at all.
      const fresh = await overHttp(api, projectId, SET_TITLE, { id: projectId, title: 'After expiry' });
      expect(codeOf(fresh)).toBe('UNAUTHENTICATED');

      const orm = await api.orm();
      const stored = await orm.em.fork().findOneOrFail(Project, { id: projectId }, { populate: ['book'] });
      expect(stored.book!.cover.title).toBe('Before expiry');
      expect(stored.title).toBe('Before expiry');
    } finally {
      await socket.dispose();
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
    const orm = await api.orm();
    // What an order with new photos leaves between its rebuild and the fulfilment taking the book.
    await orm.em.fork().nativeUpdate(Project, { id: projectId }, { ordered: true, status: 'editable' });
    const answer = await overHttp(api, projectId, SET_TITLE, { id: projectId, title: 'Sneaked in' });
    expect(codeOf(answer)).toBe('PROJECT_ORDERED');
    const stored = await orm.em.fork().findOneOrFail(Project, { id: projectId }, { populate: ['book'] });
    expect(stored.book!.cover.title).not.toBe('Sneaked in');
  });

  it('an open socket cannot edit once the project is deleted', async () => {
    const projectId = await editableProject(api, auth, { userId: 'deleting-user' });
    const socket = editorSocket(api, projectId);
    try {
      expect(codeOf(await overSocket(socket, SET_TITLE, { id: projectId, title: 'Open' }))).toBeUndefined();
      const deleted = await post(api.url, '/v2/project/delete', { user: 'deleting-user', type: 'sync', ids: [projectId] }, auth);
      expect(deleted.status).toBe(200);
      expect(codeOf(await overSocket(socket, SET_TITLE, { id: projectId, title: 'After delete' }))).toBe('PROJECT_DELETED');
    } finally {
      await socket.dispose();
    }
  });

  it('edits racing an order: none is saved after the order, and the order records the book as it was ordered', async () => {
    const projectId = await editableProject(api, auth, { userId: 'racing-user' });
    let ordered = false;
    const outcomes: { title: string; code?: string }[] = [];
    // Four editor tabs saving titles as fast as they can, while the shop places the order.
    const tab = async (name: string) => {
      for (let i = 0; !ordered || i < 3; i++) {
        const title = `${name} ${i}`;
        const answer = await overHttp(api, projectId, SET_TITLE, { id: projectId, title });
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
