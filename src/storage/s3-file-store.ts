import { createWriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Download, DownloadRequest, FileStore } from './file-store';
import { classifyResourceFault } from './resource-faults';
import { RESOURCE_UNAVAILABLE_ERROR } from '../domain/resource-errors';
import { FileStoreBase, oneProcessUrlOptions, type FileUrlOptions } from './file-store-base';
import { assertValidStorageKey, contentTypeOf } from './storage-key';

export interface S3Location {
  bucket: string;
  /** Prefix of every object key, without slashes at either end; empty for the bucket's root. */
  prefix: string;
  /** The S3 API's address (MinIO, Ceph, R2); unset means AWS S3 of `region`. */
  endpoint?: string;
  region: string;
  /** Bucket in the path (`endpoint/bucket/key`), as MinIO and most self-hosted stores want. */
  forcePathStyle: boolean;
  /** Unset means the SDK's own chain (AWS_* variables, instance or pod role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Multipart parts: a PDF of 100 MB is 13 parts; at most QUEUE_SIZE parts are in memory while they upload. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** DeleteObjects takes at most 1000 keys a call. */
const DELETE_BATCH = 1000;
/** Copies under way at once while a tree moves. */
const COPY_CONCURRENCY = 8;

/**
 * Files in an S3 bucket (any S3-API store), under `prefix/`. An object appears whole or not at
 * all: a single PUT or a multipart upload completed at the end (lib-storage's Upload, which aborts
 * the upload when the producer fails). S3 has no rename: a move copies every object of the tree,
 * then deletes the sources, so a move cut short is finished by the next call.
 */
export class S3FileStore extends FileStoreBase implements FileStore {
  readonly client: S3Client;

  constructor(
    private readonly location: S3Location,
    publicUrl: string,
    urls: FileUrlOptions = oneProcessUrlOptions(),
  ) {
    super(publicUrl, urls);
    this.client = new S3Client({
      region: location.region,
      forcePathStyle: location.forcePathStyle,
      ...(location.endpoint ? { endpoint: location.endpoint } : {}),
      ...(location.credentials ? { credentials: location.credentials } : {}),
      // Checksums only where the API requires them: many S3-compatible stores refuse the
      // streaming-trailer checksums that recent SDKs send by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async unwritableReason(): Promise<string | null> {
    // Beside the files under a name no storage key has (a dot name, so not through objectKey, which
    // refuses it); a bucket has no free space to check.
    const probe = `.writable-probe-${process.pid}`;
    const Key = this.location.prefix ? `${this.location.prefix}/${probe}` : probe;
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key, Body: 'ok' }));
      await this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key }));
      return null;
    } catch (error) {
      const fault = classifyResourceFault(error) as Error;
      return fault.name === RESOURCE_UNAVAILABLE_ERROR
        ? fault.message
        : `the S3 store refused a probe write: ${fault.name}`;
    }
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.location.bucket,
        Key: this.objectKey(key),
        Body: data,
        ContentType: contentTypeOf(key),
      }),
    );
  }

  async putStreamed(key: string, fill: (write: (chunk: Buffer) => Promise<void>) => Promise<unknown>): Promise<number> {
    const body = new PassThrough({ highWaterMark: PART_SIZE });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.location.bucket, Key: this.objectKey(key), Body: body, ContentType: contentTypeOf(key) },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
    });
    const uploaded = upload.done();
    uploaded.catch(() => undefined);
    let bytes = 0;
    try {
      await fill(async (chunk) => {
        bytes += chunk.length;
        // A failed upload stops the producer rather than leaving it waiting for a drain.
        if (!body.write(chunk)) await Promise.race([once(body, 'drain'), uploaded]);
      });
    } catch (error) {
      // The upload fails with the stream: a multipart upload is aborted, nothing is completed.
      body.destroy(error instanceof Error ? error : new Error(String(error)));
      await uploaded.catch(() => undefined);
      throw error;
    }
    body.end();
    await uploaded;
    return bytes;
  }

  async get(key: string): Promise<Buffer> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }),
    );
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  async read(key: string): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }),
    );
    return object.Body as Readable;
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /** Streams the object into `scratchDir` (never whole in memory). */
  async localFile(key: string, scratchDir: string): Promise<string> {
    const file = path.join(scratchDir, `${randomBytes(6).toString('hex')}-${path.basename(key)}`);
    await pipeline(await this.read(key), createWriteStream(file, { flags: 'wx' }));
    return file;
  }

  async download(key: string, request: DownloadRequest): Promise<Download | null> {
    let object: GetObjectCommandOutput;
    try {
      object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.location.bucket,
          Key: this.objectKey(key),
          ...(request.range ? { Range: request.range } : {}),
          ...(request.ifNoneMatch
            ? { IfNoneMatch: request.ifNoneMatch }
            : request.ifModifiedSince
              ? { IfModifiedSince: request.ifModifiedSince }
              : {}),
        }),
      );
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) return null;
      if (status === 304)
        return { kind: 'not-modified', ...(request.ifNoneMatch ? { etag: request.ifNoneMatch } : {}) };
      if (status === 416) {
        const head = await this.client.send(
          new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }),
        );
        return { kind: 'unsatisfiable', totalBytes: head.ContentLength ?? 0 };
      }
      throw error;
    }
    const bytes = object.ContentLength ?? 0;
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(object.ContentRange ?? '');
    return {
      kind: 'bytes',
      body: object.Body as Readable,
      contentType: contentTypeOf(key),
      bytes,
      totalBytes: range ? Number(range[3]) : bytes,
      ...(range ? { range: { start: Number(range[1]), end: Number(range[2]) } } : {}),
      etag: object.ETag ?? '',
      lastModified: object.LastModified ?? new Date(0),
    };
  }

  async copy(from: string, to: string): Promise<void> {
    await this.copyObject(this.objectKey(from), this.objectKey(to));
  }

  async move(from: string, to: string): Promise<boolean> {
    const [source, target] = [this.objectKey(from), this.objectKey(to)];
    const objects = await this.treeOf(source);
    if (objects.length === 0) return false;
    for (let start = 0; start < objects.length; start += COPY_CONCURRENCY) {
      await Promise.all(
        objects
          .slice(start, start + COPY_CONCURRENCY)
          .map((object) => this.copyObject(object, target + object.slice(source.length))),
      );
    }
    await this.deleteObjects(objects);
    return true;
  }

  async removeTree(prefix: string): Promise<void> {
    await this.deleteObjects(await this.treeOf(this.objectKey(prefix)));
  }

  /** The object at `objectKey` and every object below it (`objectKey/…`), all pages of the listing. */
  private async treeOf(objectKey: string): Promise<string[]> {
    const keys: string[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.location.bucket,
          Prefix: objectKey,
          ContinuationToken: continuationToken,
        }),
      );
      for (const { Key } of page.Contents ?? [])
        if (Key === objectKey || Key?.startsWith(`${objectKey}/`)) keys.push(Key);
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    return keys;
  }

  private async copyObject(from: string, to: string): Promise<void> {
    const source = `${this.location.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(new CopyObjectCommand({ Bucket: this.location.bucket, Key: to, CopySource: source }));
  }

  private async deleteObjects(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.location.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = result.Errors ?? [];
      if (failed.length > 0)
        throw new Error(
          `S3 refused to delete ${failed.length} object(s), the first ${failed[0].Key}: ${failed[0].Code} ${failed[0].Message}`,
        );
    }
  }

  private objectKey(key: string): string {
    assertValidStorageKey(key);
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }
}

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException
    ? error.$metadata.httpStatusCode
    : (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}
