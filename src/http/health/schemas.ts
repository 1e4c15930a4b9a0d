import { Type } from 'typebox';
import type { OpenApiTag } from '../shared-schemas';

/** The health family: probes for orchestrators, outside any tenant. */

export const HEALTH_TAGS = {
  operations: { name: 'operations', description: 'Health checks' },
} as const satisfies Record<string, OpenApiTag>;

const Health = Type.Object({ status: Type.String(), detail: Type.Optional(Type.String()) });

export const livenessSchema = {
  operationId: 'getLiveness',
  tags: [HEALTH_TAGS.operations.name],
  summary: 'The process is up',
  description: 'Liveness: answers {"status": "ok"} whenever the process serves HTTP, without touching the database.',
  response: { 200: Health },
};

export const readinessSchema = {
  operationId: 'getReadiness',
  tags: [HEALTH_TAGS.operations.name],
  summary: 'The database is reachable and the file store takes writes',
  description:
    'Readiness: 200 {"status": "ready"} when the database answers and the file store takes a probe write with at least STORE_MIN_FREE_BYTES free; 503 {"status": "unavailable", "detail": why} when either does not.',
  response: { 200: Health, 503: Health },
};
