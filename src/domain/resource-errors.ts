/**
 * A fault of a resource the service depends on rather than of the work itself: the file store is
 * full, over quota, read-only or refusing writes, or the S3 store answers 5xx. Such a fault passes
 * when an operator frees space or the store comes back, so flows ride it out with a durable backoff
 * for RESOURCE_RETRY_WINDOW before they give up (workflows/resource-retry.ts); anything else keeps
 * its own activity policy. The name is what crosses the engines (an activity's error reaches its
 * flow by name and message).
 */
export const RESOURCE_UNAVAILABLE_ERROR = 'ResourceUnavailableError';

export class ResourceUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = RESOURCE_UNAVAILABLE_ERROR;
  }
}

/** Whether an error (live, or as a flow sees an activity's) is a resource fault. */
export function isResourceUnavailable(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === RESOURCE_UNAVAILABLE_ERROR;
}
