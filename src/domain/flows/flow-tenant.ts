import type { Environment } from '../environment';

/**
 * Whose work a run is. The engines queue work fairly per tenant (a client's sandbox and its live
 * environment are two tenants): builds, renders, campaigns and webhook attempts of one tenant share
 * a bounded part of each queue, so another tenant's work starts while they wait (docs/operations.md,
 * Workflow engine).
 */
export interface FlowTenant {
  clientId: string;
  env: Environment;
}

/** The key a tenant's work is queued under: a DBOS queue partition, a Temporal fairness key. */
export const tenantQueueKey = ({ clientId, env }: FlowTenant): string => `${clientId}:${env}`;
