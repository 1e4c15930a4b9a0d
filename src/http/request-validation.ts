import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { ValidationError } from '../domain/errors';
import { unsafeTextError } from '../domain/safe-text';
import { schemaAjv } from '../services/schema-check';

/*
 * How a request is checked before its handler runs, part by part.
 *
 * A JSON body is typed by its sender: `"userId": 42` where the spec says string is a client bug we
 * name (400), never a value we quietly turn into "42". A querystring, a header or a path parameter
 * is text by nature, so there "2" still means 2 and "true" means true.
 */

/** Fastify's validator compiler: strict JSON types for bodies, coercion for the text parts. */
export function requestValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const strict = schemaAjv(false);
  const coercing = schemaAjv(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}

/**
 * NUL characters and lone surrogates, and the keys `__proto__`, `constructor` and `prototype`, are
 * refused in every body and querystring of every route (REST and GraphQL over HTTP: its variables
 * ride in the body), before validation and before any of it reaches the database or a hook that
 * copies it. One walk here instead of a pattern on every string field.
 */
export function refuseUnsafeText(app: FastifyInstance): void {
  // A callback hook: the check never waits, and an async hook costs every request a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const problem =
      unsafeTextError(request.query, '') ?? unsafeTextError(request.params, '') ?? unsafeTextError(request.body, '');
    done(problem ? new ValidationError([problem], 'INVALID_TEXT') : undefined);
  });
}
