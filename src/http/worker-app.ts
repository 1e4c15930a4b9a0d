import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import { OneLinePerRequest, registerObservability, requestIdOf } from './observability';
import { problem, sendProblem } from './problem';
import { healthRoutes, type HealthOptions } from './health/routes';
import { requestTimeoutOptions } from './request-timeouts';
import type { Config } from '../config';

/**
 * The HTTP face of a worker process (ROLE=worker): liveness and readiness for the orchestrator (metrics
 * are on the metrics listener, here only with METRICS_TOKEN), nothing a client could call; every other
 * path is a 404 saying so.
 */
export async function buildWorkerApp({
  em,
  log,
  metricsToken,
  store,
  limits,
}: {
  em: EntityManager;
  log: Logger;
  metricsToken?: string;
  store: HealthOptions['store'];
  limits: Config['limits'];
}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    genReqId: requestIdOf,
    logController: new OneLinePerRequest(),
    ...requestTimeoutOptions(limits),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setErrorHandler((error, request, reply) => sendProblem(request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .type('application/problem+json')
      .send({
        ...problem(
          404,
          'NO_SUCH_ROUTE',
          `${request.method} ${request.url.split('?')[0]} is not served by a worker process (ROLE=worker): ` +
            'only /healthz and /readyz (metrics: the METRICS_PORT listener)',
        ),
        requestId: request.id,
      }),
  );
  registerObservability(app, { metricsToken });
  await app.register(healthRoutes, { em, store });
  return app;
}
