import { Type, type Static } from 'typebox';

/*
 * How REST shapes are written here: every route schema is TypeBox (`Type.Object(...)`), the one
 * source of Fastify's validation, response serialisation, the OpenAPI document and, through
 * `FastifyPluginAsyncTypebox`, the handler's request and reply types. A shape a service produces
 * or takes as it is (a project view, the print order) is declared beside that service and imported
 * here; limits the services enforce are imported, not repeated. Every operation has an
 * `operationId`, a `summary` and a `description` (test/http/openapi-spectral.test.ts lints the document).
 */

/**
 * RFC 9457 problem details with the extension members of docs/api.md, Errors: the one error
 * body of every REST route, registered once with `app.addSchema` and referenced as `Problem#`.
 */
export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable code, e.g. VALIDATION_FAILED' }),
    message: Type.String({ description: 'Same as detail' }),
    errors: Type.Array(Type.Object({ path: Type.String(), message: Type.String() })),
    requestId: Type.Optional(Type.String()),
    currentRevision: Type.Optional(
      Type.Integer({ description: "REVISION_CONFLICT: the book's latest revision, to reload before editing again" }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);
export type Problem = Static<typeof Problem>;

/** A problem response in the OpenAPI document; typed as the body the error handler sends. */
const problemResponse = Type.Unsafe<Problem>({
  description: 'Problem details',
  content: { 'application/problem+json': { schema: Type.Ref('Problem#') } },
});

/**
 * What can go wrong on every operation besides its own errors: 429 over the rate limit and 503
 * while the database cannot be reached, both with `Retry-After`.
 */
const EVERY_OPERATION = [429, 503] as const;

export const problemResponses = <S extends number>(...statuses: S[]) =>
  Object.fromEntries([...statuses, ...EVERY_OPERATION].map((status) => [status, problemResponse])) as Record<
    S | (typeof EVERY_OPERATION)[number],
    typeof problemResponse
  >;

/** A plain confirmation, `{"message": "..."}`. */
export const Message = Type.Object({ message: Type.String() });

/**
 * An OpenAPI tag: each route family declares its own beside its schemas, and the document lists
 * what the families declare.
 */
export interface OpenApiTag {
  name: string;
  description: string;
}
