import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { S3FileStore } from '../../src/storage/s3-file-store';
import { startS3TestServer, type S3TestServer } from '../support/s3-test-server';
import { fileStoreContract } from './file-store-contract';

let s3: S3TestServer;
let files: S3FileStore;

beforeAll(async () => {
  s3 = await startS3TestServer({ prefix: 'store-test' });
  const config = loadConfig({ ...s3.env, DATA_DIR: '/nonexistent' });
  if (config.fileStore.kind !== 's3') throw new Error('FILE_STORE did not select the S3 store');
  files = new S3FileStore(config.fileStore, 'http://127.0.0.1:4000');
});
afterAll(async () => {
  files?.client.destroy();
  await s3?.stop();
});

fileStoreContract('S3 store', () => files);

describe('S3 store', () => {
  const objectsUnder = async (prefix: string) =>
    ((await files.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents ?? [])
      .map((object) => object.Key!)
      .sort();

  it('keeps its objects under the FILE_STORE prefix of the bucket', async () => {
    await files.put('c1/prod/where/preview.jpg', Buffer.from('x'));
    expect(await objectsUnder('store-test/c1/prod/where/')).toEqual(['store-test/c1/prod/where/preview.jpg']);
  });

  it('finishes a move that was cut short after copying, before every source was deleted', async () => {
    const names = ['photos/1.jpg', 'photos/2.jpg', 'preview.jpg'];
    for (const name of names) await files.put(`c1/prod/cut/from/${name}`, Buffer.from(name));
    // The state a process killed in the middle of a move leaves: all copied, one source deleted.
    for (const name of names) {
      await files.client.send(
        new CopyObjectCommand({
          Bucket: s3.bucket,
          Key: `store-test/c1/prod/cut/to/${name}`,
          CopySource: `${s3.bucket}/store-test/c1/prod/cut/from/${name}`,
        }),
      );
    }
    await files.client.send(
      new DeleteObjectsCommand({
        Bucket: s3.bucket,
        Delete: { Objects: [{ Key: 'store-test/c1/prod/cut/from/photos/1.jpg' }] },
      }),
    );

    expect(await files.move('c1/prod/cut/from', 'c1/prod/cut/to')).toBe(true);
    expect(await objectsUnder('store-test/c1/prod/cut/from')).toEqual([]);
    expect(await objectsUnder('store-test/c1/prod/cut/to/')).toEqual(
      names.map((name) => `store-test/c1/prod/cut/to/${name}`).sort(),
    );
    for (const name of names) expect((await files.get(`c1/prod/cut/to/${name}`)).toString()).toBe(name);
    expect(await files.move('c1/prod/cut/from', 'c1/prod/cut/to')).toBe(false);
  });

  it('aborts the multipart upload of a failed streamed write: no upload is left open', async () => {
    await expect(
      files.putStreamed('c1/prod/aborted/interior.pdf', async (write) => {
        for (let i = 0; i < 10; i++) await write(Buffer.alloc(1024 * 1024, i));
        throw new Error('the renderer died');
      }),
    ).rejects.toThrow('the renderer died');
    const uploads = await files.client
      .send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'store-test/c1/prod/aborted/' }))
      .catch(() => undefined);
    expect(uploads?.Uploads ?? []).toEqual([]);
    expect(await objectsUnder('store-test/c1/prod/aborted/')).toEqual([]);
  });
});
