import { ResourceUnavailableError } from '../domain/resource-errors';

/** The errno codes of a store that cannot take writes now, and what the operator reads for each. */
const FILESYSTEM_FAULTS: Record<string, string> = {
  ENOSPC: 'the file store is full (ENOSPC)',
  EDQUOT: 'the file store is over its quota (EDQUOT)',
  EROFS: 'the file store is read-only (EROFS)',
  EACCES: 'the file store refuses access (EACCES)',
  EPERM: 'the file store refuses the operation (EPERM)',
};

/** What S3 (and S3-compatible stores) answer when they are overloaded or down, beside any 5xx. */
const S3_UNAVAILABLE = new Set([
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
  'RequestTimeout',
  'ThrottlingException',
]);

/**
 * The one classification of resource faults (docs/reliability.md): an error of the filesystem
 * store (errno above) or of the S3 store (5xx, throttling) becomes a ResourceUnavailableError
 * whose message says which and keeps the original's; any other error is answered as it is.
 */
export function classifyResourceFault(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof ResourceUnavailableError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && Object.hasOwn(FILESYSTEM_FAULTS, code)) {
    return new ResourceUnavailableError(`${FILESYSTEM_FAULTS[code]}: ${error.message}`, { cause: error });
  }
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  if (metadata && ((metadata.httpStatusCode ?? 0) >= 500 || S3_UNAVAILABLE.has(error.name))) {
    return new ResourceUnavailableError(
      `the S3 store is unavailable (HTTP ${metadata.httpStatusCode ?? '?'} ${error.name}): ${error.message}`,
      { cause: error },
    );
  }
  return error;
}

/**
 * The same activities, each of whose errors goes through classifyResourceFault: the flows then
 * tell a full or unavailable store from a failure of the work by the error's name.
 */
export function withResourceFaultsClassified<A extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: A,
): A {
  const classified: Record<string, unknown> = {};
  for (const [name, activity] of Object.entries(activities)) {
    classified[name] = async (...args: never[]) => {
      try {
        return await activity(...args);
      } catch (error) {
        throw classifyResourceFault(error);
      }
    };
  }
  return classified as A;
}
