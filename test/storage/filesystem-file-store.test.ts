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
