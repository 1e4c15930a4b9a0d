import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

export interface S3TestServer {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The service's variables for a file store in this server's bucket (FILE_STORE and the S3_* ones). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * An S3-protocol server (@20minutes/s3rver, objects in a temporary folder) on a random loopback
 * port, with one empty bucket. s3rver checks the access key, but not signatures: the SDK signs
 * bucket-level path-style requests (ListObjectsV2, DeleteObjects) as `/bucket/`, which s3rver
 * canonicalises as `/bucket`. Its listing pages past 1000 keys need a DES cipher that Node 20's
 * OpenSSL 3 leaves out, so tests keep trees smaller than that.
 */
export async function startS3TestServer(options: { prefix?: string } = {}): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const bucket = 'photobook-test';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's one account.
  const [accessKeyId, secretAccessKey] = ['S3RVER', 'S3RVER'];
  const prefix = options.prefix ?? 'files';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    env: {
      FILE_STORE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
