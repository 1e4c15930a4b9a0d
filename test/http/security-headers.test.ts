import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from '../../src/http/security-headers';
import { ClientAdmin } from '../../src/services/clients/client-admin';
import { parseShopOrigins } from '../../src/services/clients/shop-origins';
import { loadCredentialPepper } from '../../src/services/tenancy/pepper';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../support/harness';
import { request, serviceHeader } from '../support/http';
import { editableProject } from '../support/print-fixtures';

/** The CSP as directive -> sources. */
function cspOf(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
}

describe('protective headers on every answer', () => {
  let api: TestService;
  let client: IssuedClient;
  let auth: Record<string, string>;
  let projectId: string;

  beforeAll(async () => {
    api = await startTestService();
    client = await api.createClient('Header shop');
    auth = serviceHeader(client.credentials.dev);
    projectId = await editableProject(api, auth, { userId: 'header-user' });
  });
  afterAll(async () => api?.stop());

  const get = (pathAndQuery: string, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${pathAndQuery}`, { headers });

  it('API answers, errors included, allow nothing to render or frame them, and are never sniffed', async () => {
    const answers = [
      await get('/v2/project/list?user=header-user', auth),
      await get('/v2/project/list?user=header-user'), // 401
      await get('/no/such/route'), // 404
      await fetch(`${api.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: '{"query":"{ __typename }"}',
      }),
      await get('/healthz'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 200, expect.any(Number)]);
    for (const response of answers) {
      expect(cspOf(response).get('default-src'), response.url).toEqual(["'none'"]);
      expect(cspOf(response).get('frame-ancestors')).toEqual(["'none'"]);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      // Plain HTTP: HSTS would mean nothing here.
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('the dashboard may be framed by nobody; its import map is allowed by its hash, nothing else inline', async () => {
    const response = await get('/dashboard');
    const html = await response.text();
    const csp = cspOf(response);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)![1];
    expect(csp.get('script-src')).toEqual([
      "'self'",
      `'sha256-${createHash('sha256').update(importMap).digest('base64')}'`,
    ]);
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("the editor may be framed by its client's shop origins only; by nobody until the client lists them", async () => {
    const framers = async (id: string) => cspOf(await get(`/editor?id=${id}&user=header-user`)).get('frame-ancestors');
    expect(await framers(projectId)).toEqual(["'none'"]);

    const admin = new ClientAdmin(api.service.orm.em.fork(), await loadCredentialPepper(api.config));
    await admin.setShopOrigins(client.clientId, [
      'https://Shop.Example/',
      'https://*.shop-cdn.example',
      'http://localhost:3000',
    ]);
    const editor = await get(`/editor?id=${projectId}`);
    expect(cspOf(editor).get('frame-ancestors')).toEqual([
      'https://shop.example',
      'https://*.shop-cdn.example',
      'http://localhost:3000',
    ]);
    // X-Frame-Options cannot name them, and would win in old browsers: the editor has none.
    expect(editor.headers.get('x-frame-options')).toBeNull();
    expect(editor.headers.get('x-content-type-options')).toBe('nosniff');
    // Another client's origins never frame this project, and an unknown link frames for nobody.
    const other = await api.createClient('Other shop');
    await admin.setShopOrigins(other.clientId, ['https://other.example']);
    expect(await framers(projectId)).not.toContain('https://other.example');
    expect(await framers('p-000000000000000000000000')).toEqual(["'none'"]);
    expect(await framers('not-an-id')).toEqual(["'none'"]);
  });

  it('shop origins are origins: https (http only for localhost), no path, at most 20', () => {
    const refusal = (values: string[]) => {
      try {
        parseShopOrigins(values, 'origin');
        return undefined;
      } catch (error) {
        return error as { code: string; errors: { path: string; message: string }[] };
      }
    };
    expect(refusal(['http://shop.example'])?.errors).toEqual([
      { path: 'origin[0]', message: expect.stringMatching(/https/) },
    ]);
    expect(refusal(['https://ok.example', 'https://shop.example/path'])?.errors[0].path).toBe('origin[1]');
    expect(refusal(['https://shop.example?x=1'])?.code).toBe('INVALID_SHOP_ORIGIN');
    expect(refusal(["'unsafe-inline'"])?.code).toBe('INVALID_SHOP_ORIGIN');
    expect(refusal(['https://shop.example; script-src *'])?.code).toBe('INVALID_SHOP_ORIGIN');
    expect(refusal(Array.from({ length: 21 }, (_, i) => `https://s${i}.example`))?.errors[0].path).toBe('origin');
    expect(parseShopOrigins(['https://a.example', 'https://A.example/'])).toEqual(['https://a.example']);
  });

  it('files and catalogue pictures may be embedded by other origins (shop pages, e-mails), and are not sniffed', async () => {
    const list = await request(api.url, 'GET', '/v2/project/list?user=header-user', { headers: auth });
    const preview = await fetch(list.body.data[0].preview);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(preview.headers.get('x-content-type-options')).toBe('nosniff');
    const graphql = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: '{"query":"{ __typename }"}',
    });
    expect(graphql.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('the API docs keep a CSP of their own that nobody may frame', async () => {
    const docs = await get('/docs/static/index.html');
    expect(docs.status).toBe(200);
    expect(cspOf(docs).get('frame-ancestors')).toEqual(["'none'"]);
    expect(cspOf(docs).has('upgrade-insecure-requests')).toBe(false);
  });
});

describe('HSTS', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hsts-'));
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-days',
      '1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ]);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('is sent on answers that went out over TLS', async () => {
    const app = Fastify({
      https: { key: await readFile(path.join(dir, 'key.pem')), cert: await readFile(path.join(dir, 'cert.pem')) },
    });
    await registerSecurityHeaders(app);
    app.get('/', async () => ({ ok: true }));
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) =>
        https
          .get(address, { rejectUnauthorized: false }, (response) => {
            response.resume();
            resolve(response.headers);
          })
          .on('error', reject),
      );
      expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await app.close();
    }
  });
});
