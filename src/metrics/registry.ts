import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's one Prometheus registry: every series the service exports is registered here once,
 * at module load, whichever roles and listeners the process has (docs/operations.md, Metrics).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
