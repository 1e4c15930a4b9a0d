/** One entry of a GraphQL answer's `errors`; `extensions.code` is the service's error code. */
export interface GraphQLErrorEntry {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; errors?: { path: string; message: string }[]; [key: string]: unknown };
}

/** A GraphQL operation answered with errors (or an HTTP status other than 200). */
export class PhotobookGraphQLError extends Error {
  constructor(
    readonly errors: readonly GraphQLErrorEntry[],
    readonly httpStatus?: number,
  ) {
    super(
      errors
        .map((error) => (error.extensions?.code ? `${error.extensions.code}: ${error.message}` : error.message))
        .join('; '),
    );
    this.name = 'PhotobookGraphQLError';
  }

  /** The service's error code of the first error, e.g. `NOT_FOUND`. */
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }
}
