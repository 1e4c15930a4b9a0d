import type { EntityManager } from '@mikro-orm/postgresql';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const Health = Type.Object({ status: Type.String(), detail: Type.Optional(Type.String()) });

/** Liveness (the process answers) and readiness (the database answers) for orchestrators. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ em: EntityManager }> = async (app, { em }) => {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getLiveness',
        tags: ['operations'],
        summary: 'The process is up',
        description: 'Liveness: answers {"status": "ok"} whenever the process serves HTTP, without touching the database.',
        response: { 200: Health },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'The database is reachable',
        description: 'Readiness: 200 {"status": "ready"} when the database answers, 503 {"status": "unavailable"} when it does not.',
        response: { 200: Health, 503: Health },
      },
    },
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
