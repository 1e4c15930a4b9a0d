import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppServices } from '../services/app-services';
import { createRequestContext, type RequestContext } from '../services/context';
import type { StatusEventBus } from '../events/status-event-bus';
import { DomainError } from '../domain/errors';
import type { GraphqlContext } from './context';
import { graphqlSchema } from './schema';
import { createLoaders } from './loaders';

export const GRAPHQL_PATH = '/graphql';

/**
 * The GraphQL servers of /graphql: Apollo (started, for queries and mutations; the HTTP route that
 * hands it requests is src/http/graphql-route.ts) and graphql-ws for subscriptions on the same
 * port and path. Both authenticate with the PWA credentials.
 */
export async function startGraphqlServer(app: FastifyInstance, services: AppServices, bus: StatusEventBus): Promise<ApolloServer<GraphqlContext>> {
  const schema = await graphqlSchema();

  const sockets = new WebSocketServer({ noServer: true });
  const wsServer = useServer<Record<string, unknown>, { tenant?: GraphqlContext['ctx']['tenant'] }>(
    {
      schema,
      onConnect: async (socketContext) => {
        try {
          const header = socketContext.extra.request.headers['x-service'];
          const params = socketContext.connectionParams;
          const tenant =
            params && 'accessKey' in params
              ? await services.authenticator.fromAccessKey(params, 'connection_init payload')
              : await services.authenticator.fromServiceHeader(header);
          (socketContext.extra as { tenant?: unknown }).tenant = tenant;
          return true;
        } catch (error) {
          if (error instanceof DomainError) return false; // graphql-ws closes with 4403 Forbidden
          throw error;
        }
      },
      // Subscriptions answer errors in the same vocabulary as queries (codes, no internals).
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatGraphqlError(error.toJSON(), error)),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((error) => formatGraphqlError(error.toJSON(), error)) } : undefined,
      context: (socketContext): GraphqlContext => {
        const tenant = (socketContext.extra as { tenant?: GraphqlContext['ctx']['tenant'] }).tenant!;
        return graphqlContext(createRequestContext(services.em, tenant, `ws-${crypto.randomUUID()}`), services, bus);
      },
    },
    sockets,
  );
  app.server.on('upgrade', (request, socket, head) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== GRAPHQL_PATH) {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });

  const drainSockets: ApolloServerPlugin<GraphqlContext> = {
    async serverWillStart() {
      return {
        async drainServer() {
          await wsServer.dispose();
        },
      };
    },
  };

  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    plugins: [fastifyApolloDrainPlugin(app), drainSockets],
    // X-Service is a non-simple header, so a browser must preflight any request carrying it:
    // requiring it (or Apollo's own headers) keeps CSRF prevention without blocking real clients.
    csrfPrevention: { requestHeaders: ['x-service', 'x-apollo-operation-name', 'apollo-require-preflight'] },
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphqlError,
  });
  await apollo.start();

  return apollo;
}

/** What every resolver receives, for one request or one subscription connection. */
export function graphqlContext(ctx: RequestContext, services: AppServices, bus: StatusEventBus): GraphqlContext {
  return { ctx, services, bus, loaders: createLoaders(ctx) };
}

/** Domain errors keep their code and field paths; unexpected errors never leak internals. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof DomainError) {
    return {
      ...formatted,
      message: original.message,
      extensions: { code: original.code, errors: original.errors },
    };
  }
  if (original && !(original instanceof GraphQLError) && formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
    return { message: 'internal error; it has been logged', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL' } };
  }
  return formatted;
}
