import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  DeleteProjectsDocument,
  DuplicateProjectDocument,
  GenerateProjectDocument,
  ProjectDocument,
  ProjectStatusChangedDocument,
  ProjectsDocument,
  TransferProjectDocument,
  type ProjectStatusChangedSubscription,
} from '../../support/generated/graphql';
import { startTestService, type TestService } from '../../support/harness';
import { serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { waitFor } from '../../support/wait';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

type ProjectEvent = ProjectStatusChangedSubscription['projectStatusChanged'];

describe('projects over GraphQL', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;
  let photos: PhotoServer;
  let ws: Client;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    client = await api.createClient('GraphQL projects shop');
    auth = serviceHeader(client.credentials.dev);
    photos = await startPhotoServer({
      '/a.jpg': { body: await makePhoto({ width: 1200, height: 900, takenAt: '2024:01:02 10:00:00' }) },
      '/b.jpg': { body: await makePhoto({ width: 900, height: 1200, takenAt: '2024:01:01 10:00:00' }) },
      '/text.jpg': { body: Buffer.from('this is not a photo'), type: 'image/jpeg' },
    });
    ws = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: {
        accessKey: client.credentials.dev.accessKey,
        accessSecret: client.credentials.dev.accessSecret,
      },
    });
  });
  afterAll(async () => {
    await ws?.dispose();
    await photos?.close();
    await api?.stop();
  });

  async function execute<R, V>(document: TypedDocumentNode<R, V>, variables: V, headers = auth) {
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: print(document), variables }),
    });
    return (await response.json()) as { data?: R; errors?: { message: string; extensions?: Record<string, any> }[] };
  }

  const generate = async (userId: string, photoPaths: string[] = []) => {
    const { data, errors } = await execute(GenerateProjectDocument, {
      input: {
        userId,
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: '0',
        photos: photoPaths.map((p, i) => ({ id: `c${i}`, url: photos.url(p) })),
      },
    });
    expect(errors).toBeUndefined();
    return data!.generateProject;
  };

  it('streams building then editable to a subscriber of the user, in sequence', async () => {
    const events: ProjectEvent[] = [];
    const stop = ws.subscribe<ProjectStatusChangedSubscription>(
      { query: print(ProjectStatusChangedDocument), variables: { user: 'live-user' } },
      {
        next: (r) => r.data && events.push(r.data.projectStatusChanged),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    // graphql-ws does not acknowledge a subscription: generate until the first event arrives.
    let projectId = '';
    await waitFor(
      async () => {
        if (events.length === 0)
          projectId = (await generate('live-user', ['/a.jpg', '/b.jpg', '/text.jpg'])).project.id;
        return events.some((e) => e.projectId === projectId);
      },
      10_000,
      'the subscription to deliver',
    );
    await waitFor(
      async () => events.some((e) => e.projectId === projectId && e.status.project === 'editable'),
      30_000,
      'editable event',
    );
    stop();
    const mine = events.filter((e) => e.projectId === projectId);
    expect(mine.map((e) => e.sequence)).toEqual(mine.map((_, i) => i + 1));
    expect(mine[0].status).toEqual({ project: 'created', photos: 'uploading' });
    const projectStatuses = [...new Set(mine.map((e) => e.status.project))];
    expect(projectStatuses).toEqual(['created', 'building', 'editable']);
    const photoStatuses = [...new Set(mine.map((e) => e.status.photos))];
    expect(photoStatuses).toEqual(['uploading', 'analyzing', 'idle']);
    expect(mine.every((e) => e.user === 'live-user')).toBe(true);

    const { data } = await execute(ProjectDocument, { id: projectId });
    const failed = data!.project.photos.filter((p) => p.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ url: photos.url('/text.jpg'), problem: { code: 'NOT_AN_IMAGE' } });
    expect(data!.project.pages.flatMap((p) => p.photos).length).toBe(2);
  });

  it("pages a user's projects as a Relay connection", async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await generate('connection-user')).project.id);
    const first = await execute(ProjectsDocument, { user: 'connection-user', first: 2 });
    expect(first.data!.projects.edges.map((e) => e.node.id)).toEqual([ids[4], ids[3]]);
    expect(first.data!.projects.pageInfo.hasNextPage).toBe(true);
    const rest = await execute(ProjectsDocument, {
      user: 'connection-user',
      first: 10,
      after: first.data!.projects.pageInfo.endCursor,
    });
    expect(rest.data!.projects.edges.map((e) => e.node.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.data!.projects.pageInfo.hasNextPage).toBe(false);
    // An edge cursor resumes right after its node.
    const fromEdge = await execute(ProjectsDocument, {
      user: 'connection-user',
      first: 1,
      after: first.data!.projects.edges[0].cursor,
    });
    expect(fromEdge.data!.projects.edges.map((e) => e.node.id)).toEqual([ids[3]]);
    const tooMany = await execute(ProjectsDocument, { user: 'connection-user', first: 500 });
    expect(tooMany.errors![0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'first' }] });
    const notOurs = await execute(ProjectsDocument, { user: 'connection-user', first: 1, after: 'not-a-cursor' });
    expect(notOurs.errors![0].extensions).toMatchObject({ code: 'UNKNOWN_CURSOR', errors: [{ path: 'after' }] });
  });

  it("duplicates, transfers and deletes, with REST's rules", async () => {
    const { project } = await generate('mutating-user');
    await waitFor(
      async () => (await execute(ProjectDocument, { id: project.id })).data?.project.status.project === 'editable',
      30_000,
      'editable',
    );
    const copy = await execute(DuplicateProjectDocument, { id: project.id });
    expect(copy.data!.duplicateProject).toMatchObject({ endUserId: 'mutating-user' });
    const moved = await execute(TransferProjectDocument, {
      id: copy.data!.duplicateProject.id,
      targetUser: 'new-owner',
    });
    expect(moved.data!.transferProject).toEqual({ id: copy.data!.duplicateProject.id, endUserId: 'new-owner' });
    const deleted = await execute(DeleteProjectsDocument, { user: 'mutating-user', ids: [project.id], type: 'sync' });
    expect(deleted.data!.deleteProjects.ids).toEqual([project.id]);
    const gone = await execute(ProjectsDocument, { user: 'mutating-user' });
    expect(gone.data!.projects.edges).toEqual([]);
  });

  it("reports errors with the REST codes and field paths, and hides other clients' projects", async () => {
    const bad = await execute(GenerateProjectDocument, {
      input: { email: 'a@b.co', userId: 'both', sku: 'X', psp: 'local', marketId: '0' },
    });
    expect(bad.errors![0].extensions).toMatchObject({ code: 'AMBIGUOUS_OWNER' });
    const unknownSku = await execute(GenerateProjectDocument, {
      input: { userId: 'x', sku: 'NOPE', psp: 'local', marketId: '0' },
    });
    expect(unknownSku.errors![0].extensions).toMatchObject({ code: 'UNKNOWN_SKU', errors: [{ path: 'sku' }] });

    const { project } = await generate('secret-user');
    const other = serviceHeader((await api.createClient('Nosy shop')).credentials.dev);
    const foreign = await execute(ProjectDocument, { id: project.id }, other);
    expect(foreign.data).toBeNull();
    expect(foreign.errors![0].extensions!.code).toBe('NOT_FOUND');
  });

  it('answers a status-only selection (one lean row) exactly as the full record does, and as REST status does', async () => {
    const { project } = await generate('lean-reader');
    await waitFor(
      async () => (await execute(ProjectDocument, { id: project.id })).data?.project.status.project === 'editable',
      30_000,
      'editable',
    );
    const query = (selection: string, headers = auth) =>
      fetch(`${api.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          query: `query ($id: String!) { project(id: $id) { ${selection} } }`,
          variables: { id: project.id },
        }),
      }).then(
        (r) =>
          r.json() as Promise<{
            data: { project: Record<string, unknown> } | null;
            errors?: { extensions: { code: string } }[];
          }>,
      );
    const lean = await query('__typename id status { project photos } ordered expiresAt photos { id }');
    const full = await query('__typename id status { project photos } ordered expiresAt photos { id } title endUserId');
    const { title: _title, endUserId: _owner, ...fullAsLean } = full.data!.project;
    expect(lean.data!.project).toEqual(fullAsLean);
    const rest = await fetch(`${api.url}/v2/project/status?id=${project.id}`, { headers: auth }).then(
      (r) => r.json() as Promise<{ status: unknown }>,
    );
    expect(lean.data!.project.status).toEqual(rest.status);

    const other = serviceHeader((await api.createClient('Lean nosy shop')).credentials.dev);
    const foreign = await query('id status { project }', other);
    expect(foreign.data).toBeNull();
    expect(foreign.errors![0].extensions.code).toBe('NOT_FOUND');
  });
});
