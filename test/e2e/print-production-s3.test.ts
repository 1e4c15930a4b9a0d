import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { startS3TestServer, type S3TestServer } from '../support/s3-test-server';
import { waitFor } from '../support/wait';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** poppler's pdfinfo page count, when installed (scripts/install-test-tools.sh). */
function pdfinfoPages(bytes: Uint8Array): number | undefined {
  try {
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'pdfinfo-')), 'file.pdf');
  writeFileSync(file, bytes);
  return Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
}

/**
 * With FILE_STORE=s3://…, a project is built (photos downloaded into the bucket, analysed from
 * it), ordered, rendered and assembled: cover.pdf and interior.pdf are in the bucket, served at
 * their signed /files URLs with the bucket's bytes, and nothing was written under DATA_DIR/files.
 */
describe('print production with the files in S3', () => {
  let s3: S3TestServer;
  let api: TestService;
  let photos: PhotoServer;
  let bucket: S3Client;

  beforeAll(async () => {
    s3 = await startS3TestServer({ prefix: 'shop' });
    api = await startTestService({ ...s3.env, ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms' });
    bucket = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    photos = await startPhotoServer({
      '/a.jpg': { body: await makePhoto({ width: 2600, height: 3500, takenAt: '2024:07:01 10:00:00' }) },
      '/b.jpg': {
        body: await makePhoto({ width: 2600, height: 3500, colour: '#c0392b', takenAt: '2024:07:02 10:00:00' }),
      },
    });
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
    bucket?.destroy();
    await s3?.stop();
  });

  it('builds, renders and assembles a book whose files all live in the bucket', async () => {
    const owner = serviceHeader((await api.createClient('S3 shop')).credentials.dev);
    const projectId = await editableProject(api, owner, {
      email: 's3@example.com',
      photos: [photos.url('/a.jpg'), photos.url('/b.jpg')],
    });
    expect((await post(api.url, '/v2/print', printBody('s3-order-1', projectId), owner)).status).toBe(200);
    const printFiles = () => request(api.url, 'GET', '/v2/order/print-files?orderId=s3-order-1', { headers: owner });
    await waitFor(async () => (await printFiles()).body.lines?.[0]?.printFiles !== undefined, 120_000, 'print files');
    const files = (await printFiles()).body.lines[0].printFiles;

    const fromBucket = async (url: string) => {
      const key = `shop/${decodeURIComponent(new URL(url).pathname.slice('/files/'.length))}`;
      const object = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
      return object.Body!.transformToByteArray();
    };
    const served = async (url: string) => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      return new Uint8Array(await response.arrayBuffer());
    };
    const interiorBytes = await served(files.interiorPdfUrl);
    const coverBytes = await served(files.coverPdfUrl);
    expect(sha256(await fromBucket(files.interiorPdfUrl))).toBe(sha256(interiorBytes));
    expect(sha256(await fromBucket(files.coverPdfUrl))).toBe(sha256(coverBytes));

    const pages = (await PDFDocument.load(interiorBytes)).getPageCount();
    expect(pages).toBe(files.pages - 1);
    expect((await PDFDocument.load(coverBytes)).getPageCount()).toBe(1);
    const readByPoppler = pdfinfoPages(interiorBytes);
    if (readByPoppler !== undefined) expect(readByPoppler).toBe(pages);

    // The manifest names the bytes the bucket holds.
    const manifest = (await (await fetch(files.manifestUrl)).json()) as { interior: { bytes: number; sha256: string } };
    expect(manifest.interior).toMatchObject({ bytes: interiorBytes.length, sha256: sha256(interiorBytes) });
    // A range of a print file, streamed from the bucket through /files.
    const head = await fetch(files.interiorPdfUrl, { headers: { range: 'bytes=0-4' } });
    expect(head.status).toBe(206);
    expect(Buffer.from(await head.arrayBuffer()).toString()).toBe('%PDF-');

    // Originals, thumbnails, the preview and the rendered pages are in the bucket too; the local disk holds none.
    const keys = (
      (await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'shop/' }))).Contents ?? []
    ).map((object) => object.Key!);
    expect(keys.filter((key) => /\/photos\//.test(key)).length).toBeGreaterThanOrEqual(2);
    expect(keys.some((key) => key.endsWith('/preview.jpg'))).toBe(true);
    expect(keys.filter((key) => /\/pages\/\d{4}\.jpg$/.test(key))).toHaveLength(pages);
    const localFiles = path.join(api.config.dataDir, 'files');
    expect(existsSync(localFiles) ? await readdir(localFiles) : []).toEqual([]);
  }, 180_000);
});
