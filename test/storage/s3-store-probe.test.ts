import { afterAll, beforeAll, expect, it } from 'vitest';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { loadConfig } from '../../src/config';
import { S3FileStore } from '../../src/storage/s3-file-store';
import { startS3TestServer, type S3TestServer } from '../support/s3-test-server';

let s3: S3TestServer;
let files: S3FileStore;
let running = true;

beforeAll(async () => {
  s3 = await startS3TestServer({ prefix: 'probed' });
  const config = loadConfig({ ...s3.env, DATA_DIR: '/nonexistent' });
  if (config.fileStore.kind !== 's3') throw new Error('FILE_STORE did not select the S3 store');
  files = new S3FileStore(config.fileStore, 'http://127.0.0.1:4000');
});
afterAll(async () => {
  files?.client.destroy();
  if (running) await s3?.stop();
});

// /readyz asks this of a cluster's store: a writable bucket is ready, and the probe leaves nothing behind.
it('finds a writable S3 store writable and leaves no probe object', async () => {
  expect(await files.unwritableReason()).toBeNull();
  const listed = await files.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'probed/' }));
  expect(listed.Contents ?? []).toEqual([]);
});

it('names the fault when the store does not answer', async () => {
  await s3.stop();
  running = false;
  expect(await files.unwritableReason()).toMatch(/S3|store/);
});
