import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FilesystemFileStore } from '../../src/storage/filesystem-file-store';
import { fileStoreContract } from './file-store-contract';

let root: string;
let files: FilesystemFileStore;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'filesystem-store-'));
  files = new FilesystemFileStore(root, 'http://127.0.0.1:4000');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

fileStoreContract('filesystem store', () => files);

it('filesystem store: a failed streamed write leaves no temporary file in the folder', async () => {
  await expect(
    files.putStreamed('c1/prod/tmp-check/book.pdf', async (write) => {
      await write(Buffer.from('half a book'));
      throw new Error('the producer failed');
    }),
  ).rejects.toThrow('the producer failed');
  expect(await readdir(path.join(root, 'c1', 'prod', 'tmp-check'))).toEqual([]);
});

it('a cover preview keeps one URL for the hour its expiry is rounded up to, at least PREVIEW_URL_TTL away, and it opens the file', () => {
  const hour = 3_600_000;
  const ttl = 30 * 86_400_000;
  const at = Math.floor(Date.now() / hour) * hour + 1000;
  const key = 'c1/dev/preview-check/preview.jpg';
  const first = new URL(files.previewUrl(key, at));
  const expires = Number(first.searchParams.get('expires'));
  expect(expires * 1000).toBe(at - 1000 + hour + ttl);
  expect(files.previewUrl(key, at + hour - 2000)).toBe(first.toString());
  const next = new URL(files.previewUrl(key, at + hour));
  expect(Number(next.searchParams.get('expires'))).toBe(expires + 3600);
  for (const url of [first, next])
    expect(files.verifyUrl(key, url.searchParams.get('expires'), url.searchParams.get('signature'))).toBe('valid');
  // Another key's URL is its own, not the kept one.
  expect(files.previewUrl('c1/dev/other/preview.jpg', at)).not.toBe(first.toString());
});
