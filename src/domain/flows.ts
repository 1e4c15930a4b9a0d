/**
 * The service's flows as the rest of the service names them: flow names (also Temporal's workflow
 * types), the workflow id of each run, the signals a flow waits for, and the port through which
 * services start and signal flows. Workflow ids are business keys, so starting the same work twice
 * is one run.
 */

import type { Environment } from './environment';
import type { OrderStatus } from './order-status';

export const PROJECT_BUILD_FLOW = 'projectBuild';
export const PROJECT_EXPUNGE_FLOW = 'projectExpunge';
export const PRINT_FULFILMENT_FLOW = 'printFulfilment';
export const CAMPAIGN_FLOW = 'campaign';
export const WEBHOOK_DELIVERY_FLOW = 'webhookDelivery';

/** A project's build after `generate`; an order that replaces the photos rebuilds it once per order line. */
export const projectBuildWorkflowId = (projectId: string, orderLineId?: string) =>
  orderLineId === undefined ? `project-build:${projectId}` : `project-build:${projectId}:${orderLineId}`;

/** An operator's rebuild of a failed project (`project rebuild`): a new run each time, `at` its start in ms. */
export const projectRebuildWorkflowId = (projectId: string, at: number) => `project-build:${projectId}:rebuild-${at}`;

/** The project a build run is for (first build, an order's rebuild or an operator's), or undefined when `workflowId` is another flow's. */
export const projectOfBuild = (workflowId: string): string | undefined =>
  workflowId.startsWith('project-build:') ? workflowId.slice('project-build:'.length).split(':')[0] : undefined;

/** A deleted project's expunge after the retention period. */
export const projectExpungeWorkflowId = (projectId: string) => `project-expunge:${projectId}`;

/** Fulfilment runs once per order line. */
export const fulfilmentWorkflowId = (orderLineId: string) => `fulfilment:${orderLineId}`;

/** The order line a fulfilment run is for, or undefined when `workflowId` is another flow's. */
export const orderLineOfFulfilment = (workflowId: string): string | undefined =>
  workflowId.startsWith('fulfilment:') ? workflowId.slice('fulfilment:'.length) : undefined;

/** The business key: starting the same campaign twice is one run. */
export const campaignWorkflowId = (clientId: string, campaignId: string) => `campaign:${clientId}:${campaignId}`;

/** Round 0 is a delivery's first sending; each replay of a failed delivery is a new round (a new run). */
export const webhookWorkflowId = (deliveryId: string, round = 0) => (round === 0 ? `webhook:${deliveryId}` : `webhook:${deliveryId}:replay-${round}`);

/** Printer events and eCommerce cancels reach a running fulfilment as this signal. */
export const STATUS_UPDATE_SIGNAL = 'statusUpdate';

/** The payload of `STATUS_UPDATE_SIGNAL`. */
export interface StatusUpdate {
  status: OrderStatus;
  trackingUrl?: string;
  /** Carrier, tracking number and URL per parcel, as the printer reports them. */
  parcels?: { carrier?: string; trackingNumber?: string; trackingUrl?: string }[];
}

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

export interface FlowStartOptions {
  tenant: FlowTenant;
}

/** The key a tenant's work is queued under: a DBOS queue partition, a Temporal fairness key. */
export const tenantQueueKey = ({ clientId, env }: FlowTenant): string => `${clientId}:${env}`;

/**
 * What the services see of the workflow engine: Temporal at scale (TEMPORAL_ADDRESS set), DBOS
 * Transact inside the API process otherwise. Both run the same flows from workflows/.
 */
export interface WorkflowEngine {
  /**
   * Starts flow `flowName` as `workflowId`. Idempotent: when a run with that id exists, running or
   * finished (completed or failed), nothing happens. The run and its queued activities are queued
   * under `options.tenant`.
   */
  start<I>(flowName: string, workflowId: string, input: I, options: FlowStartOptions): Promise<void>;
  /**
   * Sends signal `name` to a running flow; the flow's next `waitForSignal(name)` returns `payload`.
   * Signals sent before the flow waits are kept in order. Throws `WorkflowNotFoundError` when no
   * run with that id is running (never started, or already finished).
   */
  signal(workflowId: string, name: string, payload?: unknown): Promise<void>;
  /** Stops this process's part (executions, connections); runs stay durable and resume later. */
  stop(): Promise<void>;
}

/**
 * The process's workflow engine is between two lives: it stopped executing when it lost its
 * executor lease (a database outage) and launches again once the database is back. A moment's
 * state, answered like a database that is away (503, Retry-After).
 */
export class WorkflowEngineUnavailableError extends Error {
  constructor() {
    super('the workflow engine is waiting for the database to come back');
    this.name = 'WorkflowEngineUnavailableError';
  }
}

export class WorkflowNotFoundError extends Error {
  constructor(readonly workflowId: string) {
    super(`No running workflow with id "${workflowId}"`);
    this.name = 'WorkflowNotFoundError';
  }
}
