import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { startS3TestServer, type S3TestServer } from '../../support/s3-test-server';

/**
 * A GET with the path and headers sent exactly as written: fetch would resolve `..` before
 * sending, and adds `cache-control: no-cache` to a conditional request, as a forced reload does.
 */
function rawGet(
  baseUrl: string,
  requestPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: requestPath, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each([['the filesystem store'], ['the S3 store']])('stored files at /files/<key>, from %s', (store) => {
  const s3Store = store === 'the S3 store';
  let s3: S3TestServer | undefined;
  let api: TestService;
  const base = 'c1/prod/projects/p1';
  const stored: Record<string, { type: string; body: Buffer }> = {};
  /** The signed URL the API would hand out for `key`. */
  const signed = (key: string) => api.service.files.url(key);
  /** A raw path (sent exactly as written) with a valid signature for the key it spells, `..` and all. */
  const signedRaw = (rawPath: string) =>
    `${rawPath}?${new URL(api.service.files.url(decodeURIComponent(rawPath.slice('/files/'.length)))).search.slice(1)}`;

  beforeAll(async () => {
    s3 = s3Store ? await startS3TestServer() : undefined;
    api = await startTestService(s3?.env ?? {});
    const image = sharp({ create: { width: 64, height: 48, channels: 3, background: '#2e86c1' } });
    stored['preview.jpg'] = { type: 'image/jpeg', body: await image.clone().jpeg().toBuffer() };
    stored['thumb.png'] = { type: 'image/png', body: await image.clone().png().toBuffer() };
    stored['thumb.webp'] = { type: 'image/webp', body: await image.clone().webp().toBuffer() };
    stored['book.pdf'] = { type: 'application/pdf', body: Buffer.from('%PDF-1.4\n% a print file\n%%EOF\n') };
    stored['manifest.json'] = { type: 'application/json; charset=utf-8', body: Buffer.from('{"pages":24}') };
    for (const [name, file] of Object.entries(stored)) await api.service.files.put(`${base}/${name}`, file.body);
    // Beside the store, inside DATA_DIR: must never be reachable through /files.
    await writeFile(path.join(api.config.dataDir, 'secret.json'), '{"secret":"outside-the-store"}');
    // A write in progress and a file type the store does not publish.
    await api.service.files.put(`${base}/preview.jpg.0a1b2c.tmp`, stored['preview.jpg'].body);
    await api.service.files.put(`${base}/notes.txt`, Buffer.from('not published'));
    if (!s3Store) await mkdir(path.join(api.config.dataDir, 'files', base, 'empty'), { recursive: true });
  });
  afterAll(async () => {
    await api?.stop();
    await s3?.stop();
  });

  it('serves each stored type with its content type, length and private caching', async () => {
    for (const [name, file] of Object.entries(stored)) {
      const response = await fetch(signed(`${base}/${name}`));
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toBe(file.type);
      expect(response.headers.get('content-length'), name).toBe(String(file.body.length));
      expect(response.headers.get('cache-control'), name).toBe('private, max-age=300');
      expect(Buffer.from(await response.arrayBuffer()).equals(file.body), name).toBe(true);
    }
  });

  it('answers a repeated request with 304 Not Modified when the ETag still matches', async () => {
    const first = await fetch(signed(`${base}/preview.jpg`));
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('last-modified')).toBeTruthy();

    const again = await rawGet(
      api.url,
      new URL(signed(`${base}/preview.jpg`)).pathname + new URL(signed(`${base}/preview.jpg`)).search,
      { 'if-none-match': etag! },
    );
    expect(again.status).toBe(304);
    expect(again.body).toBe('');

    await api.service.files.put(`${base}/preview.jpg`, Buffer.concat([stored['preview.jpg'].body, Buffer.from([0])]));
    const changed = await rawGet(
      api.url,
      new URL(signed(`${base}/preview.jpg`)).pathname + new URL(signed(`${base}/preview.jpg`)).search,
      { 'if-none-match': etag! },
    );
    expect(changed.status).toBe(200);
    await api.service.files.put(`${base}/preview.jpg`, stored['preview.jpg'].body);
  });

  it('serves byte ranges, and refuses a range beyond the end', async () => {
    const pdf = stored['book.pdf'].body;
    const part = await fetch(signed(`${base}/book.pdf`), { headers: { range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-7/${pdf.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(pdf.subarray(0, 8))).toBe(true);

    const beyond = await fetch(signed(`${base}/book.pdf`), { headers: { range: `bytes=${pdf.length + 10}-` } });
    expect(beyond.status).toBe(416);
  });

  it('answers an unknown key with a 404 problem naming it', async () => {
    const response = await fetch(signed(`${base}/missing.jpg`));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe('NOT_FOUND');
    expect(problem.detail).toContain('missing.jpg');
  });

  it('lists no directory and serves neither files being written nor unpublished types', async () => {
    for (const key of [
      `${base}/`,
      base,
      `${base}/empty/`,
      'c1/',
      `${base}/preview.jpg.0a1b2c.tmp`,
      `${base}/notes.txt`,
    ]) {
      const response = await fetch(signed(key));
      expect(response.status, key).toBe(404);
      expect(await response.text(), key).not.toContain('thumb.png');
    }
  });

  it('refuses a path without a signature, with a tampered one, for another key, or expired: 403 problems saying what to do', async () => {
    const key = `${base}/book.pdf`;
    const good = new URL(signed(key));
    const signature = good.searchParams.get('signature')!;
    const expires = Number(good.searchParams.get('expires'));
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const cases: [string, string, string][] = [
      ['unsigned', `/files/${key}`, 'FILE_URL_UNSIGNED'],
      ['signature without expiry', `/files/${key}?signature=${signature}`, 'FILE_URL_INVALID'],
      ['tampered signature', `/files/${key}?expires=${expires}&signature=${flipped}`, 'FILE_URL_INVALID'],
      ['expiry moved later', `/files/${key}?expires=${expires + 3600}&signature=${signature}`, 'FILE_URL_INVALID'],
      ['another key', `/files/${base}/manifest.json?expires=${expires}&signature=${signature}`, 'FILE_URL_INVALID'],
      [
        'expired',
        new URL(api.service.files.url(key, -1000)).pathname + new URL(api.service.files.url(key, -1000)).search,
        'FILE_URL_EXPIRED',
      ],
    ];
    for (const [what, requestPath, code] of cases) {
      const response = await fetch(`${api.url}${requestPath}`);
      expect(response.status, what).toBe(403);
      expect(response.headers.get('content-type'), what).toContain('application/problem+json');
      const problem = (await response.json()) as { code: string; detail: string };
      expect(problem.code, what).toBe(code);
      expect(problem.detail, what).toMatch(/fresh URL/);
    }
    expect((await fetch(`${api.url}${good.pathname}${good.search}`)).status).toBe(200);
  });

  it('never serves a file outside the store, however the path is written', async () => {
    for (const attempt of [
      '/files/../secret.json',
      '/files/%2e%2e/secret.json',
      '/files/..%2fsecret.json',
      `/files/${base}/../../../../../secret.json`,
      `/files/${base}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/secret.json`,
      '/files/c1/..%2f..%2fsecret.json',
      '/files//secret.json',
      `/files/${path.join(api.config.dataDir, 'secret.json')}`,
    ]) {
      const response = await rawGet(api.url, signedRaw(attempt));
      expect(response.status, attempt).toBe(404);
      expect(response.body, attempt).not.toContain('outside-the-store');
    }
  });
});
