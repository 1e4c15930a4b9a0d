import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { isResourceUnavailable } from '../../src/domain/resource-errors';
import { classifyResourceFault } from '../../src/storage/resource-faults';

const errno = (code: string) => Object.assign(new Error(`${code}: something, write`), { code });
const s3 = (name: string, httpStatusCode: number) =>
  new S3ServiceException({
    name,
    $fault: httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode },
    message: `${name} answered`,
  });

/** The one place resource faults are told from failures of the work (docs/reliability.md). */
describe('classifyResourceFault', () => {
  it('names a full, over-quota, read-only or refusing store and keeps what the system said', () => {
    for (const [code, says] of [
      ['ENOSPC', 'full'],
      ['EDQUOT', 'quota'],
      ['EROFS', 'read-only'],
      ['EACCES', 'refuses access'],
      ['EPERM', 'refuses the operation'],
    ]) {
      const fault = classifyResourceFault(errno(code)) as Error;
      expect(isResourceUnavailable(fault), code).toBe(true);
      expect(fault.message, code).toContain(says);
      expect(fault.message, code).toContain(`${code}: something, write`);
    }
  });

  it('names an S3 store answering 5xx or throttling, not one refusing a request of ours', () => {
    expect(isResourceUnavailable(classifyResourceFault(s3('InternalError', 500)))).toBe(true);
    expect(isResourceUnavailable(classifyResourceFault(s3('SlowDown', 503)))).toBe(true);
    expect((classifyResourceFault(s3('ServiceUnavailable', 503)) as Error).message).toMatch(
      /the S3 store is unavailable \(HTTP 503 ServiceUnavailable\)/,
    );
    expect(isResourceUnavailable(classifyResourceFault(s3('NoSuchKey', 404)))).toBe(false);
    expect(isResourceUnavailable(classifyResourceFault(s3('AccessDenied', 403)))).toBe(false);
  });

  it('leaves every other error as it is: the work failed, not the store', async () => {
    const notFound = errno('ENOENT');
    expect(classifyResourceFault(notFound)).toBe(notFound);
    const plain = new Error('page 3 is 10x10 px');
    expect(classifyResourceFault(plain)).toBe(plain);
    expect(classifyResourceFault('a string')).toBe('a string');
  });

  it('classifies what the filesystem really throws on a folder it may not write', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'resource-faults-'));
    try {
      // A file where a folder is expected: ENOTDIR, a fault of the work (a bad key), not of the store.
      await writeFile(path.join(dir, 'file'), 'x');
      const error = await writeFile(path.join(dir, 'file', 'child'), 'x').catch((e: unknown) => e);
      expect(isResourceUnavailable(classifyResourceFault(error))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
