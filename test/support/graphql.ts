import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { post } from './http';

export interface GraphqlResult<R> {
  data?: R;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

/**
 * One GraphQL request over real HTTP (POST /graphql) with the caller's headers: a typed document
 * from test/support/generated (its result typed) or a query written in the test (its body as parsed).
 */
export async function graphql<R, V>(
  url: string,
  headers: Record<string, string>,
  query: TypedDocumentNode<R, V>,
  variables: V,
): Promise<GraphqlResult<R>>;
export async function graphql(
  url: string,
  headers: Record<string, string>,
  query: string,
  variables?: Record<string, unknown>,
): Promise<any>;
export async function graphql<R, V>(
  url: string,
  headers: Record<string, string>,
  query: TypedDocumentNode<R, V> | string,
  variables?: V,
): Promise<GraphqlResult<R>> {
  const text = typeof query === 'string' ? query : print(query);
  return (await post(url, '/graphql', { query: text, variables }, headers)).body;
}
