import { PhotobookGraphQLError, type GraphQLErrorEntry } from './graphql-error';
import type { TypedDocument, VariablesArgument } from './typed-document';

export type GraphQLRequest = <TResult, TVariables>(
  document: TypedDocument<TResult, TVariables>,
  ...variables: VariablesArgument<TVariables>
) => Promise<TResult>;

interface GraphQLAnswer {
  data?: unknown;
  errors?: GraphQLErrorEntry[];
}

/** Queries and mutations as `POST /graphql`; answers the data, or throws PhotobookGraphQLError. */
export function graphqlOverHttp(
  endpoint: string,
  headers: Record<string, string>,
  fetchImpl: typeof fetch,
): GraphQLRequest {
  return async (document, ...[variables]) => {
    const response = await fetchImpl(endpoint, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
      },
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
    });
    // A proxy in between may answer an error page rather than GraphQL's JSON.
    const answer = (await response.json().catch(() => ({}))) as GraphQLAnswer;
    if (answer.errors?.length) throw new PhotobookGraphQLError(answer.errors, response.status);
    if (!response.ok || answer.data == null) {
      throw new PhotobookGraphQLError(
        [{ message: `the service answered HTTP ${response.status} without data` }],
        response.status,
      );
    }
    return answer.data as never;
  };
}
