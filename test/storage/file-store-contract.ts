import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { FileStore } from '../../src/storage/file-store';
import { withScratchDir } from '../../src/storage/scratch-dir';

/** More than one multipart part of the S3 store (8 MiB), so a streamed write there is a multipart upload. */
const LARGE = 12 * 1024 * 1024 + 123;

async function text(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Chunks of `data`, 1 MiB each, as a producer hands them to putStreamed. */
async function writeInChunks(
  data: Buffer,
  write: (chunk: Buffer) => Promise<void>,
  failAfter = Infinity,
): Promise<void> {
  for (let offset = 0; offset < data.length; offset += 1024 * 1024) {
    if (offset >= failAfter) throw new Error('the producer failed');
    await write(data.subarray(offset, offset + 1024 * 1024));
  }
}

/**
 * What every FileStore must do, whatever holds the files: the filesystem store and the S3 store
 * both run these (filesystem-file-store.test.ts, s3-file-store.test.ts). `store()` answers the
 * store under test; each test writes under a prefix of its own.
 */
export function fileStoreContract(name: string, store: () => FileStore): void {
  const prefix = () => `c1/prod/contract-${randomBytes(4).toString('hex')}`;

  describe(`${name}: the FileStore contract`, () => {
    it('puts, gets, reads as a stream and tells whether a key exists; a second put replaces the file whole', async () => {
      const files = store();
      const key = `${prefix()}/preview.jpg`;
      expect(await files.exists(key)).toBe(false);
      await files.put(key, Buffer.from('first version'));
      expect(await files.exists(key)).toBe(true);
      expect((await files.get(key)).toString()).toBe('first version');
      await files.put(key, Buffer.from('second'));
      expect((await text(await files.read(key))).toString()).toBe('second');
      await expect(files.get(`${key}.missing`)).rejects.toThrow();
      await expect(files.read(`${key}.missing`)).rejects.toThrow();
    });

    it('refuses keys that are not storage keys, before writing anything', async () => {
      const files = store();
      for (const key of ['../escape.jpg', '/absolute.jpg', 'a//b.jpg', 'a/./b.jpg', 'a/../b.jpg', '', 'a/b/']) {
        expect(files.isValidKey(key), key).toBe(false);
        await expect(files.put(key, Buffer.from('x')), key).rejects.toThrow(/invalid storage key/);
      }
    });

    it('streams a large file in, chunk by chunk, and answers the bytes written', async () => {
      const files = store();
      const key = `${prefix()}/interior.pdf`;
      const data = randomBytes(LARGE);
      expect(await files.putStreamed(key, (write) => writeInChunks(data, write))).toBe(LARGE);
      expect((await files.get(key)).equals(data)).toBe(true);
      const fromStream = `${prefix()}/copy-of-stream.pdf`;
      expect(await files.putFrom(fromStream, Readable.from([data.subarray(0, 1000), data.subarray(1000)]))).toBe(LARGE);
      expect((await text(await files.read(fromStream))).equals(data)).toBe(true);
    });

    it('leaves nothing under the key when the producer of a streamed write fails, and an older file as it was', async () => {
      const files = store();
      const base = prefix();
      const data = randomBytes(LARGE);
      await expect(
        files.putStreamed(`${base}/new.pdf`, (write) => writeInChunks(data, write, 10 * 1024 * 1024)),
      ).rejects.toThrow('the producer failed');
      expect(await files.exists(`${base}/new.pdf`)).toBe(false);
      await files.put(`${base}/old.pdf`, Buffer.from('the old book'));
      await expect(
        files.putStreamed(`${base}/old.pdf`, (write) => writeInChunks(data, write, 10 * 1024 * 1024)),
      ).rejects.toThrow('the producer failed');
      expect((await files.get(`${base}/old.pdf`)).toString()).toBe('the old book');
    });

    it('hands a local file of a key to libraries that read files, for as long as the job lasts', async () => {
      const files = store();
      const key = `${prefix()}/original.jpg`;
      const data = randomBytes(300_000);
      await files.put(key, data);
      const local = await withScratchDir(async (scratch) => {
        const file = await files.localFile(key, scratch);
        expect((await readFile(file)).equals(data)).toBe(true);
        return file;
      });
      // A copy made for the job goes with the job; the store's own file (on a local disk) stays.
      expect((await files.get(key)).equals(data)).toBe(true);
      if (!local.includes('photobook-job-')) expect(existsSync(local)).toBe(true);
      else expect(existsSync(local)).toBe(false);
    });

    it('copies a file, and moves a key with everything below it, leaving keys that merely start alike', async () => {
      const files = store();
      const base = prefix();
      await files.put(`${base}/a/photo.jpg`, Buffer.from('photo'));
      await files.copy(`${base}/a/photo.jpg`, `${base}/copied/photo.jpg`);
      expect((await files.get(`${base}/copied/photo.jpg`)).toString()).toBe('photo');
      expect(await files.exists(`${base}/a/photo.jpg`)).toBe(true);

      await files.put(`${base}/a/pages/0001.jpg`, Buffer.from('page 1'));
      await files.put(`${base}/ab/other.jpg`, Buffer.from('a sibling'));
      expect(await files.move(`${base}/a`, `${base}/moved/a`)).toBe(true);
      expect((await files.get(`${base}/moved/a/photo.jpg`)).toString()).toBe('photo');
      expect((await files.get(`${base}/moved/a/pages/0001.jpg`)).toString()).toBe('page 1');
      expect(await files.exists(`${base}/a/photo.jpg`)).toBe(false);
      expect(await files.exists(`${base}/a/pages/0001.jpg`)).toBe(false);
      expect((await files.get(`${base}/ab/other.jpg`)).toString()).toBe('a sibling');
      // Already moved: nothing to do, and the moved files stay.
      expect(await files.move(`${base}/a`, `${base}/moved/a`)).toBe(false);
      expect(await files.exists(`${base}/moved/a/photo.jpg`)).toBe(true);
    });

    it('removes a key with everything below it, and nothing else', async () => {
      const files = store();
      const base = prefix();
      await files.put(`${base}/p/preview.jpg`, Buffer.from('1'));
      await files.put(`${base}/p/photos/x.jpg`, Buffer.from('2'));
      await files.put(`${base}/p2/preview.jpg`, Buffer.from('3'));
      await files.removeTree(`${base}/p`);
      expect(await files.exists(`${base}/p/preview.jpg`)).toBe(false);
      expect(await files.exists(`${base}/p/photos/x.jpg`)).toBe(false);
      expect(await files.exists(`${base}/p2/preview.jpg`)).toBe(true);
      await files.removeTree(`${base}/never-written`);
    });

    it('answers downloads: the whole file with its type and validators, a range, a range beyond the end, not modified, or nothing', async () => {
      const files = store();
      const base = prefix();
      const pdf = Buffer.from('%PDF-1.4\n% a print file\n%%EOF\n');
      await files.put(`${base}/book.pdf`, pdf);
      const whole = await files.download(`${base}/book.pdf`, {});
      if (whole?.kind !== 'bytes') throw new Error(`expected bytes, got ${whole?.kind}`);
      expect(whole.contentType).toBe('application/pdf');
      expect([whole.bytes, whole.totalBytes]).toEqual([pdf.length, pdf.length]);
      expect(whole.range).toBeUndefined();
      expect(whole.etag).toMatch(/"/);
      expect((await text(whole.body)).equals(pdf)).toBe(true);

      const part = await files.download(`${base}/book.pdf`, { range: 'bytes=0-7' });
      if (part?.kind !== 'bytes') throw new Error(`expected bytes, got ${part?.kind}`);
      expect(part.range).toEqual({ start: 0, end: 7 });
      expect([part.bytes, part.totalBytes]).toEqual([8, pdf.length]);
      expect((await text(part.body)).equals(pdf.subarray(0, 8))).toBe(true);

      expect(await files.download(`${base}/book.pdf`, { range: `bytes=${pdf.length + 10}-` })).toEqual({
        kind: 'unsatisfiable',
        totalBytes: pdf.length,
      });
      expect(await files.download(`${base}/book.pdf`, { ifNoneMatch: whole.etag })).toMatchObject({
        kind: 'not-modified',
      });
      expect((await files.download(`${base}/book.pdf`, { ifNoneMatch: '"something-else"' }))?.kind).toBe('bytes');
      expect(await files.download(`${base}/missing.pdf`, {})).toBeNull();
      await files.put(`${base}/folder/inner.json`, Buffer.from('{}'));
      expect(await files.download(`${base}/folder`, {})).toBeNull();
      const json = await files.download(`${base}/folder/inner.json`, {});
      expect(json?.kind === 'bytes' && json.contentType).toBe('application/json; charset=utf-8');
      if (json?.kind === 'bytes') json.body.destroy();
    });

    it('signs URLs of keys at PUBLIC_URL/files and checks them', () => {
      const files = store();
      const { url, expiresAt } = files.signedUrl('c1/prod/projects/x/preview.jpg', 60_000);
      const parsed = new URL(url);
      expect(parsed.pathname).toBe('/files/c1/prod/projects/x/preview.jpg');
      expect(Number(parsed.searchParams.get('expires'))).toBe(expiresAt);
      expect(
        files.verifyUrl(
          'c1/prod/projects/x/preview.jpg',
          parsed.searchParams.get('expires'),
          parsed.searchParams.get('signature'),
        ),
      ).toBe('valid');
      expect(
        files.verifyUrl(
          'c1/prod/projects/y/preview.jpg',
          parsed.searchParams.get('expires'),
          parsed.searchParams.get('signature'),
        ),
      ).toBe('invalid');
    });
  });
}
