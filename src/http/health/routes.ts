import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FileStore } from '../../storage/file-store';
import { livenessSchema, readinessSchema } from './schemas';

/** How long one probe of the file store answers /readyz: balancers ask every few seconds, a probe writes. */
const STORE_PROBE_TTL_MS = 2_000;

export interface HealthOptions {
  em: EntityManager;
  /** The file store, and the free bytes it must keep (STORE_MIN_FREE_BYTES), both checked by /readyz. */
  store: { files: FileStore; minFreeBytes: number };
}

/**
 * Liveness (the process answers) and readiness for orchestrators: the database answers, and the
 * file store takes writes (not full, not read-only, reachable). A store that cannot take writes
 * makes every render and build wait (RESOURCE_RETRY_WINDOW) and then fail; /readyz says so first.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<HealthOptions> = async (app, { em, store }) => {
  app.get('/healthz', { schema: livenessSchema }, async () => ({ status: 'ok' }));

  let probe: { at: number; reason: Promise<string | null> } | undefined;
  const storeProblem = () => {
    if (!probe || Date.now() - probe.at > STORE_PROBE_TTL_MS)
      probe = { at: Date.now(), reason: store.files.unwritableReason(store.minFreeBytes) };
    return probe.reason;
  };

  app.get('/readyz', { schema: readinessSchema }, async (request, reply) => {
    try {
      await em.getConnection().execute('SELECT 1');
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ status: 'unavailable', detail: 'the database is not reachable' });
    }
    const problem = await storeProblem();
    if (problem) {
      request.log.warn({ reason: problem }, 'readiness check failed: the file store cannot take writes');
      return reply.status(503).send({ status: 'unavailable', detail: problem });
    }
    return { status: 'ready' };
  });
};
