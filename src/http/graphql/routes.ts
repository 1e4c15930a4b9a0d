import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { AppServices } from '../../services/app-services';
import type { StatusEventBus } from '../../events/status-event-bus';
import { GRAPHQL_PATH, graphqlContext, startGraphqlServer } from '../../graphql/graphql-server';
import { setRetryAfter, toProblem } from '../problem';
import { contextOf } from '../request-context';
import { apolloFastifyHandler } from './apollo-fastify-handler';
import { authenticateBeforeTheBody } from '../authenticate-request';

/**
 * Mounts GraphQL at /graphql: queries and mutations over HTTP through Apollo, subscriptions over
 * graphql-ws on the same port and path. Errors before Apollo (authentication, a malformed body)
 * answer in GraphQL's shape with the same codes as REST problems.
 */
export async function registerGraphql(
  app: FastifyInstance,
  services: AppServices,
  bus: StatusEventBus,
  limits: Config['limits'],
  addressOf: (request: IncomingMessage) => string,
  production: boolean,
): Promise<void> {
  const apollo = await startGraphqlServer(app, services, bus, { ...limits, addressOf, hideSchemaDetails: production });

  await app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      const body = toProblem(error);
      setRetryAfter(reply, error, body.status);
      if (body.status >= 500 && body.status !== 503) request.log.error({ err: error }, 'graphql request failed');
      return reply
        .status(body.status)
        .type('application/json')
        .send({
          errors: [{ message: body.detail, extensions: { code: body.code, errors: body.errors } }],
        });
    });
    // The editor opens with its link's project id (X-Editor-Project), never with the client's secret.
    authenticateBeforeTheBody(scope, services.authenticator, { editor: true, bodyLimit: limits.bodyLimitBytes });
    scope.route({
      url: GRAPHQL_PATH,
      method: ['GET', 'POST'],
      schema: { hide: true },
      // Arrival, not now: a request that waited behind others (its authentication, the event loop) still arrived when it did.
      handler: apolloFastifyHandler(apollo, async (request, reply) =>
        graphqlContext(contextOf(request, services.em), services, bus, Date.now() - reply.elapsedTime),
      ),
    });
  });
}
