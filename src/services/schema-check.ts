import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from 'typebox';
import { ValidationError, type FieldError } from '../domain/errors';

/*
 * One way a JSON schema (the TypeBox declarations of src/services) checks what a client sends, for
 * every transport: Fastify compiles the REST routes' schemas with these options (src/http/request-validation.ts),
 * and a transport without a schema check of its own (GraphQL, whose Int and Float say nothing of
 * range) checks the same schema with `schemaCheck`. A refusal names the fields alike either way.
 */

const OPTIONS = {
  allErrors: true,
  verbose: true,
  allowUnionTypes: true,
  useDefaults: true,
  removeAdditional: true,
  addUsedSchema: false,
} as const;

/**
 * An Ajv as the REST schemas are compiled with. A JSON body is typed by its sender (no coercion:
 * `"userId": 42` where the spec says string is a client bug we name); text parts (querystring,
 * headers, path) coerce, "2" meaning 2.
 */
export function schemaAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ ...OPTIONS, coerceTypes });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

/**
 * A check of a JSON value (never coerced, as a REST body) against `schema`: the value, typed, or a
 * 400 VALIDATION_FAILED naming every field the schema refuses, as REST's answer names them.
 */
export function schemaCheck<T extends TSchema>(schema: T): (value: unknown) => Static<T> {
  const validate = schemaAjv(false).compile(schema as object);
  return (value) => {
    if (validate(value)) return value as Static<T>;
    throw new ValidationError(fieldErrorsOf(validate.errors as SchemaError[]));
  };
}

/** An Ajv error as a check reports it (`verbose` adds the parent schema). */
export interface SchemaError {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: { description?: string };
}

/** A schema's refusals as the fields the client sent: one line per field. */
export function fieldErrorsOf(errors: SchemaError[], context?: string): FieldError[] {
  return collapseAlternatives(errors).map((error) => fieldErrorOf(error, context));
}

/**
 * A value that fits none of an `anyOf`'s forms makes Ajv report every branch's complaint; the
 * client needs one line per field: "must be <the anyOf's description>".
 */
function collapseAlternatives(errors: SchemaError[]): SchemaError[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  return errors.filter((error) => {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') return true;
    return !alternatives.some(
      (alt) =>
        error.schemaPath?.startsWith(alt.schemaPath ?? '\0') &&
        (error.instancePath === alt.instancePath || error.instancePath.startsWith(`${alt.instancePath}/`)),
    );
  });
}

/** `/user/address/line1` -> `user.address.line1`, the field as the client sent it. */
function fieldErrorOf(error: SchemaError, context?: string): FieldError {
  const segments = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  const path = segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') message = 'is required';
  else if (error.keyword === 'type') message = `must be ${error.params.type}`;
  else if ((error.keyword === 'anyOf' || error.keyword === 'oneOf') && error.parentSchema?.description)
    message = `must be ${error.parentSchema.description}`;
  else if (error.keyword === 'enum')
    message = `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return { path: path || (context === 'querystring' ? '(query)' : '(body)'), message };
}
