import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, RateLimitedError, type ErrorKind, type FieldError } from '../domain/errors';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_CODE,
  DATABASE_UNAVAILABLE_MESSAGE,
} from '../domain/database-unavailable';
import { isDatabaseUnavailable } from '../services/database-unavailable';
import { fieldErrorsOf, type SchemaError } from '../services/schema-check';
import type { Problem } from './shared-schemas';

const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rejected: 422,
  rate_limited: 429,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A problem's `type`: `VALIDATION_FAILED` -> `/problems/validation-failed`, served by ./problems/routes.ts. */
export function problemTypeOf(code: string): string {
  return `/problems/${code.toLowerCase().replace(/_/g, '-')}`;
}

/** The `title` of a problem with this HTTP status. */
export function problemTitleOf(status: number): string {
  return TITLES[status] ?? 'Error';
}

export function problem(status: number, code: string, detail: string, errors: FieldError[] = []): Problem {
  return {
    type: problemTypeOf(code),
    title: problemTitleOf(status),
    status,
    detail,
    code,
    message: detail,
    errors,
  };
}

/** Maps anything thrown while handling a request to a problem; unknown errors become a 500. */
export function toProblem(error: unknown): Problem {
  if (error instanceof DomainError) {
    return { ...problem(STATUS_OF_KIND[error.kind], error.code, error.message, error.errors), ...error.members };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const context = fastifyError.validationContext;
    const errors = fieldErrorsOf(fastifyError.validation as SchemaError[], context);
    return problem(400, 'VALIDATION_FAILED', errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return problem(400, 'MALFORMED_JSON', `the request body is not valid JSON: ${fastifyError.message}`, [
        { path: '(body)', message: 'is not valid JSON' },
      ]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problem(400, 'MALFORMED_JSON', 'the request body is empty but Content-Type is application/json', [
        { path: '(body)', message: 'is empty' },
      ]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem(413, 'PAYLOAD_TOO_LARGE', 'the request body is larger than the service accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the request body as application/json');
  }
  if (isDatabaseUnavailable(error)) return databaseUnavailableProblem();
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return problem(status, fastifyError.code ?? 'BAD_REQUEST', fastifyError.message);
  }
  return problem(500, 'INTERNAL', 'the service failed to handle the request; it has been logged');
}

/**
 * The database cannot be reached right now: a temporary state of ours, not a fault of the request.
 * Retrying is safe for the idempotent calls (`/v2/print` by its orderId) and for reads.
 */
function databaseUnavailableProblem(): Problem {
  return problem(503, DATABASE_UNAVAILABLE_CODE, DATABASE_UNAVAILABLE_MESSAGE);
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const body = toProblem(error);
  if (body.status === 503) request.log.warn({ err: error }, 'request failed: the database is not reachable');
  else if (body.status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: body.code, status: body.status }, 'request rejected');
  body.requestId = request.id;
  setRetryAfter(reply, error, body.status);
  return reply.status(body.status).type('application/problem+json').send(body);
}

/** `Retry-After` for the answers that have one: a rate limit's wait, an unreachable database's. */
export function setRetryAfter(reply: FastifyReply, error: unknown, status: number): void {
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
  else if (status === 503) reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
}
