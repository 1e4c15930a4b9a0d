import { Writable } from 'node:stream';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../../src/logger';
import { scrubLogLine, withoutQueryValues } from '../../src/logger/redaction';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';

const EMAIL = 'Grace.Hopper+books@example.org';

describe('logs carry no editor credential, e-mail address or secret', () => {
  const lines: string[] = [];
  let api: TestService;
  let client: IssuedClient;
  let photos: PhotoServer;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    api = await startTestService(
      { ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms', LOG_LEVEL: 'debug' },
      undefined,
      createLogger('debug', sink),
    );
    client = await api.createClient('Logged shop');
    photos = await startPhotoServer({ '/a.jpg': { body: await makePhoto({ width: 1200, height: 900 }) } });
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  it("after a whole project's life at debug level: generate, editor page, edits over HTTP and a socket, list, print, order history, a wrong secret, a 404", async () => {
    const dev = client.credentials.dev;
    const auth = serviceHeader(dev);
    const generated = await post(
      api.url,
      '/v2/generate',
      { email: EMAIL, sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, photos: [photos.url('/a.jpg')] },
      auth,
    );
    expect(generated.status).toBe(200);
    const editorUrl = new URL(generated.body.url);
    const projectId = editorUrl.searchParams.get('id')!;
    const editorKey = editorUrl.searchParams.get('editorKey')!;
    await editableProject(api, auth, { email: EMAIL }); // a second project of the same user
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status
          ?.project === 'editable',
      60_000,
      'editable',
    );

    // The editor page with the generated link's query: id, user (the e-mail), client...
    expect((await fetch(`${api.url}/editor${editorUrl.search}`)).status).toBe(200);
    const edit = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-editor-project': projectId, 'x-editor-key': editorKey },
      body: JSON.stringify({ query: `mutation { setCoverTexts(projectId: "${projectId}", title: "Logged") { id } }` }),
    });
    expect(edit.status).toBe(200);
    const socket = createClient({
      url: `${api.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { editorProject: projectId, editorKey },
      retryAttempts: 0,
    });
    await new Promise<void>((resolve, reject) =>
      socket.subscribe(
        { query: `mutation { setCoverTexts(projectId: "${projectId}", title: "Socket") { id } }` },
        { next: () => {}, error: reject, complete: resolve },
      ),
    );
    await socket.dispose();

    const list = await request(api.url, 'GET', `/v2/project/list?user=${encodeURIComponent(EMAIL)}`, { headers: auth });
    expect(list.body.data).toHaveLength(2);
    const preview: string = list.body.data.find((p: any) => p.id === projectId).preview;
    expect((await fetch(preview)).status).toBe(200);
    expect((await post(api.url, '/v2/print', printBody('logged-order', projectId), auth)).status).toBe(200);
    await waitFor(
      async () =>
        (await request(api.url, 'GET', `/v2/order/print-files?orderId=logged-order`, { headers: auth })).body.lines?.[0]
          ?.printFiles,
      120_000,
      'print files',
    );
    expect(
      (await post(api.url, '/api/v2/user/get-order-history.php', { env: 'dev', key: dev.apiKey, email: EMAIL })).status,
    ).toBe(200);
    // Refusals: the secret of the X-Service header, a wrong apiKey in a body, an unknown project named in the URL.
    expect(
      (
        await request(api.url, 'GET', `/v2/project/list?user=${encodeURIComponent(EMAIL)}`, {
          headers: serviceHeader({ accessKey: dev.accessKey, accessSecret: `${dev.accessSecret}x` }),
        })
      ).status,
    ).toBe(401);
    expect(
      (await post(api.url, '/api/v2/user/get-order-history.php', { env: 'dev', key: `${dev.apiKey}x`, email: EMAIL }))
        .status,
    ).toBe(401);
    expect(
      (
        await request(
          api.url,
          'GET',
          `/v2/project/status?id=${projectId.slice(0, -1)}${projectId.endsWith('Z') ? 'Y' : 'Z'}`,
          { headers: auth },
        )
      ).status,
    ).toBe(404);

    const log = lines.join('\n');
    // The run was logged, at debug level, request by request.
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.some((line) => JSON.parse(line).level === 20)).toBe(true);
    expect(log).toContain('"url":"/editor?id=[redacted]&editorKey=[redacted]&clientId=[redacted]');
    expect(log).toContain('project built');
    for (const secret of [
      projectId,
      projectId.slice(2),
      editorKey,
      EMAIL,
      EMAIL.toLowerCase(),
      encodeURIComponent(EMAIL),
      dev.accessSecret,
      dev.apiKey,
      new URL(preview).searchParams.get('signature')!,
    ]) {
      expect(log, secret).not.toContain(secret);
    }
  });
});

describe('the redaction itself', () => {
  it('keeps query names and drops their values', () => {
    expect(withoutQueryValues('/editor?id=p-abc&user=a%40b.example&product=true')).toBe(
      '/editor?id=[redacted]&user=[redacted]&product=[redacted]',
    );
    expect(withoutQueryValues('/v2/project/list')).toBe('/v2/project/list');
  });

  it('marks a project id the same way each time, and scrubs e-mails and secrets from any line', () => {
    const id = 'p-Abcdefghijklmnopqrstuvwx';
    const line = scrubLogLine(
      `{"msg":"workflow project-build:${id} for ada@example.com with whsec_c2VjcmV0c2VjcmV0c2VjcmV0 and as_dev_Secret123 at /files/a?expires=1&signature=abc_def"}`,
    );
    expect(line).not.toContain(id);
    expect(line).toContain(scrubLogLine(id));
    expect(scrubLogLine(id)).toMatch(/^p#[0-9a-f]{12}$/);
    expect(line).not.toMatch(/ada@|whsec_|as_dev_|abc_def/);
    expect(line).toContain('signature=[redacted]');
  });
});
