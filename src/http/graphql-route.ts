import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { AppServices } from '../services/app-services';
import type { StatusEventBus } from '../events/status-event-bus';
import { GRAPHQL_PATH, graphqlContext, startGraphqlServer } from '../graphql/graphql-server';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/database-unavailable';
import { toProblem } from './problem';
import { contextOf } from './request-context';
import { apolloFastifyHandler } from './apollo-fastify-handler';

/**
 * Mounts GraphQL at /graphql: queries and mutations over HTTP through Apollo, subscriptions over
 * graphql-ws on the same port and path. Errors before Apollo (authentication, a malformed body)
 * answer in GraphQL's shape with the same codes as REST problems.
 */
export async function registerGraphql(app: FastifyInstance, services: AppServices, bus: StatusEventBus, limits: Config['limits']): Promise<void> {
  const apollo = await startGraphqlServer(app, services, bus, limits);

  await app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      const body = toProblem(error);
      if (body.status === 503) reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      else if (body.status >= 500) request.log.error({ err: error }, 'graphql request failed');
      return reply.status(body.status).type('application/json').send({
        errors: [{ message: body.detail, extensions: { code: body.code, errors: body.errors } }],
      });
    });
    scope.addHook('preHandler', async (request) => {
      // The editor opens with its link's project id, never with the client's secret.
      const editorProject = request.headers['x-editor-project'];
      if (editorProject !== undefined && request.headers['x-service'] === undefined) {
        const session = await services.editor.openSession(editorProject);
        request.tenant = session.tenant;
        request.projectScope = session.projectId;
        return;
      }
      request.tenant = await services.authenticator.fromServiceHeader(request.headers['x-service']);
    });
    scope.route({
      url: GRAPHQL_PATH,
      method: ['GET', 'POST'],
      schema: { hide: true },
      handler: apolloFastifyHandler(apollo, async (request) => graphqlContext(contextOf(request, services.em), services, bus)),
    });
  });
}
