import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLRequest } from '@apollo/server';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { Readable } from 'node:stream';

/**
 * Hands a Fastify request to Apollo and Apollo's answer back, as `@as-integrations/fastify` does,
 * without its per-request `new URL(…)` (to find the query string) or its header map rebuilt
 * from `Object.entries`: GraphQL over HTTP would pay those on every request (docs/performance.md).
 */
export function apolloFastifyHandler<Context extends BaseContext>(
  apollo: ApolloServer<Context>,
  context: (request: FastifyRequest, reply: FastifyReply) => Promise<Context>,
): RouteHandlerMethod {
  apollo.assertStarted('apolloFastifyHandler()');
  return async (request, reply) => {
    const { headers, body, status } = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: graphqlRequestOf(request),
      context: () => context(request, reply),
    });
    for (const [name, value] of headers) void reply.header(name, value);
    void reply.code(status ?? 200);
    if (body.kind === 'complete') return body.string;
    return reply.send(Readable.from(body.asyncIterator));
  };
}

function graphqlRequestOf(request: FastifyRequest): HTTPGraphQLRequest {
  const headers = new HeaderMap();
  for (const name in request.headers) {
    const value = request.headers[name];
    if (value) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const queryStart = request.url.indexOf('?');
  return {
    method: request.method,
    headers,
    search: queryStart < 0 ? '' : request.url.slice(queryStart),
    body: request.body,
  };
}
