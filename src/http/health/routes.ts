import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { livenessSchema, readinessSchema } from './schemas';

/** Liveness (the process answers) and readiness (the database answers) for orchestrators. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ em: EntityManager }> = async (app, { em }) => {
  app.get('/healthz', { schema: livenessSchema }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: readinessSchema }, async (request, reply) => {
    try {
      await em.getConnection().execute('SELECT 1');
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ status: 'unavailable', detail: 'the database is not reachable' });
    }
  });
};
