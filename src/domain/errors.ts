/**
 * The service's one error vocabulary. Services throw these; each transport maps them once
 * (RFC 9457 problem details for REST, `extensions.code` for GraphQL).
 */
export interface FieldError {
  /** The field as the client sent it, e.g. `user.address.line1`. */
  path: string;
  message: string;
}

export type ErrorKind =
  | 'invalid' // 400
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'rejected' // 422
  | 'rate_limited'; // 429

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    /** Stable machine code, e.g. `UNKNOWN_SKU`. */
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
    /** Extra machine-readable members (REST problem extension members, GraphQL `extensions`). */
    readonly members: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class ValidationError extends DomainError {
  constructor(errors: FieldError[], code = 'VALIDATION_FAILED') {
    super('invalid', code, errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
  }

  static field(path: string, message: string, code?: string): ValidationError {
    return new ValidationError([{ path, message }], code);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message: string, path?: string) {
    super('unauthenticated', 'UNAUTHENTICATED', message, path ? [{ path, message }] : []);
  }
}

/** Credentials are fine, or not needed, but this request may not have what it asks for (a bad or expired file URL). */
export class ForbiddenError extends DomainError {
  constructor(code: string, message: string) {
    super('forbidden', code, message);
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string, id: string | number, path?: string) {
    const message = `${what} ${JSON.stringify(id)} was not found`;
    super('not_found', 'NOT_FOUND', message, path ? [{ path, message }] : []);
  }
}

export class ConflictError extends DomainError {
  constructor(code: string, message: string) {
    super('conflict', code, message);
  }
}

/**
 * An edit made on a book revision that is no longer the book's latest: another editor changed it
 * first. Nothing was written; `currentRevision` tells the client which revision to reload.
 */
export class RevisionConflictError extends DomainError {
  constructor(expected: number, currentRevision: number) {
    const message = `is ${expected}, but the book is at revision ${currentRevision}: another edit came first`;
    super(
      'conflict',
      'REVISION_CONFLICT',
      `expectedRevision: ${message}; reload the book and apply the edit again`,
      [{ path: 'expectedRevision', message }],
      { currentRevision },
    );
  }
}

/** Well-formed input the catalogue or business rules reject (unknown sku, totals mismatch...). */
export class RejectedError extends DomainError {
  constructor(code: string, path: string, message: string) {
    super('rejected', code, `${path}: ${message}`, [{ path, message }]);
  }
}

/** Over a published limit: retry after `retryAfterSeconds` (REST sends it as `Retry-After`). */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code = 'RATE_LIMITED',
  ) {
    super('rate_limited', code, message);
  }
}
