import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsync } from 'fastify';

const status = { type: 'object', required: ['status'], properties: { status: { type: 'string' }, detail: { type: 'string' } } } as const;

/** Liveness (the process answers) and readiness (the database answers) for orchestrators. */
export const healthRoutes: FastifyPluginAsync<{ em: EntityManager }> = async (app, { em }) => {
  app.get('/healthz', { schema: { tags: ['operations'], summary: 'The process is up', response: { 200: status } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    { schema: { tags: ['operations'], summary: 'The database is reachable', response: { 200: status, 503: status } } },
    async (request, reply) => {
      try {
        await em.getConnection().execute('SELECT 1');
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.status(503).send({ status: 'unavailable', detail: 'the database is not reachable' });
      }
    },
  );
};
