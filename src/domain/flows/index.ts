/**
 * The service's durable processes: one contract per flow (name, workflow id, input, output, signals,
 * queue), the tenant a run belongs to, and the engine port typed by the contracts.
 */
export * from './flow-contract';
export * from './flow-tenant';
export * from './workflow-engine';
export * from './project-build-flow';
export * from './project-expunge-flow';
export * from './print-fulfilment-flow';
export * from './campaign-flow';
export * from './webhook-delivery-flow';
export * from './uploaded-photo-flow';
