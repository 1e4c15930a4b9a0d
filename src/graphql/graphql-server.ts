import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppServices } from '../services/app-services';
import type { StatusEventBus } from '../events/status-event-bus';
import { DomainError } from '../services/errors';
import { toProblem } from '../http/problem';
import { contextOf } from '../http/request-context';
import { createRequestContext } from '../services/context';
import type { GraphqlContext } from './context';
import { graphqlSchema } from './schema';
import { createLoaders } from './loaders';

export const GRAPHQL_PATH = '/graphql';

/**
 * Mounts GraphQL at /graphql: queries and mutations over HTTP through Apollo, subscriptions over
 * graphql-ws on the same port and path. Both authenticate with the PWA credentials.
 */
export async function registerGraphql(app: FastifyInstance, services: AppServices, bus: StatusEventBus): Promise<void> {
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
      context: (socketContext): GraphqlContext => {
        const tenant = (socketContext.extra as { tenant?: GraphqlContext['ctx']['tenant'] }).tenant!;
        const ctx = createRequestContext(services.em, tenant, `ws-${crypto.randomUUID()}`);
        return { ctx, services, bus, loaders: createLoaders(ctx.em) };
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

  await app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      const body = toProblem(error);
      if (body.status >= 500) request.log.error({ err: error }, 'graphql request failed');
      return reply.status(body.status).type('application/json').send({
        errors: [{ message: body.detail, extensions: { code: body.code, errors: body.errors } }],
      });
    });
    scope.addHook('preHandler', async (request) => {
      request.tenant = await services.authenticator.fromServiceHeader(request.headers['x-service']);
    });
    scope.route({
      url: GRAPHQL_PATH,
      method: ['GET', 'POST'],
      schema: { hide: true },
      handler: fastifyApolloHandler(apollo, {
        context: async (request) => {
          const ctx = contextOf(request, services.em);
          return { ctx, services, bus, loaders: createLoaders(ctx.em) };
        },
      }),
    });
  });
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
