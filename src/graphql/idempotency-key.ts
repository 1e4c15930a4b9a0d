import { createHash } from 'node:crypto';
import { canonicalJson } from '../domain/canonical-json';
import type { ApolloServerPlugin, GraphQLRequestContext } from '@apollo/server';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { Arg } from 'type-graphql';
import { DomainError } from '../domain/errors';
import { DATABASE_UNAVAILABLE_CODE } from '../domain/database-unavailable';
import type { GraphqlContext } from './context';

const ARGUMENT = 'idempotencyKey';

/**
 * The `idempotencyKey` argument of the mutations that create things: the GraphQL twin of REST's
 * `Idempotency-Key` header (docs/api.md, Idempotency). Resolvers only declare it; the plugin below
 * acts on it before the operation runs.
 */
export const IdempotencyKeyArg = () =>
  Arg(ARGUMENT, () => String, {
    nullable: true,
    description:
      'Sent again with the same operation and variables, answers the first answer without doing it again (docs/api.md, Idempotency)',
  });

/**
 * Apollo plugin: a mutation with an `idempotencyKey` claims it before it runs (a duplicate in
 * flight or the key reused for other variables is an error), its result is kept, and the same
 * operation again answers that result. Over HTTP; graphql-ws runs mutations without it.
 */
export function idempotencyPlugin(): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart({ request }) {
      // Only a document that names the argument can carry a key, and most requests are queries that
      // do not: they go without this plugin's hooks. A persisted query arrives without its text.
      if (typeof request.query === 'string' && !request.query.includes(ARGUMENT)) return;
      let claimed: string | undefined;
      return {
        async responseForOperation(request) {
          const key = keyOf(request.operation, request.request.variables ?? {});
          if (key === undefined) return null;
          const { ctx, services } = request.contextValue;
          try {
            const outcome = await services.idempotency.claim(ctx, key, requestHashOf(request), ARGUMENT);
            if (outcome.kind === 'claimed') {
              claimed = key;
              return null;
            }
            return { http: request.response.http, body: { kind: 'single', singleResult: JSON.parse(outcome.body) } };
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            return {
              http: request.response.http,
              body: {
                kind: 'single',
                singleResult: {
                  errors: [{ message: error.message, extensions: { code: error.code, errors: error.errors } }],
                },
              },
            };
          }
        },
        async willSendResponse(request) {
          if (!claimed || request.response.body.kind !== 'single') return;
          const { ctx, services } = request.contextValue;
          const result = request.response.body.singleResult;
          // As REST frees a key on any 5xx: a fault of ours, or a database away, may succeed when retried.
          const failedOnOurSide = result.errors?.some(
            (error) => error.extensions?.code === 'INTERNAL' || error.extensions?.code === DATABASE_UNAVAILABLE_CODE,
          );
          if (failedOnOurSide) await services.idempotency.release(ctx, claimed);
          else
            await services.idempotency.complete(ctx, claimed, {
              status: 200,
              contentType: 'application/json',
              body: JSON.stringify(result),
            });
          claimed = undefined;
        },
      };
    },
  };
}

/** The `idempotencyKey` of a mutation's top-level field, written inline or as a variable. */
function keyOf(operation: OperationDefinitionNode | undefined, variables: Record<string, unknown>): string | undefined {
  if (operation?.operation !== 'mutation') return undefined;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const argument = selection.arguments?.find((a) => a.name.value === ARGUMENT);
    if (!argument) continue;
    const value =
      argument.value.kind === Kind.VARIABLE
        ? variables[argument.value.name.value]
        : argument.value.kind === Kind.STRING
          ? argument.value.value
          : undefined;
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function requestHashOf(request: GraphQLRequestContext<GraphqlContext>): string {
  const { query, variables, operationName } = request.request;
  return createHash('sha256')
    .update(`GRAPHQL ${operationName ?? ''}\n${query ?? ''}\n${canonicalJson(variables ?? {})}`)
    .digest('hex');
}
