/**
 * The Temporal workflows: every flow of workflows/index.ts, as one dynamic workflow that runs the
 * flow whose contract's name is the run's workflow type (`flow.contract.name`, what the engine
 * starts). The worker bundles this file (src/worker.ts); a new flow needs no line here.
 */
import { workflowInfo } from '@temporalio/workflow';
import { FLOWS } from '../index';
import { runFlowOnTemporal } from './run-flow';

const FLOW_BY_TYPE = new Map(FLOWS.map((flow) => [flow.contract.name, flow]));

export default async function runFlowOfType(input: unknown): Promise<unknown> {
  const { workflowType } = workflowInfo();
  const flow = FLOW_BY_TYPE.get(workflowType);
  // An unknown type is a deployment error: thrown as a plain Error, it fails the workflow task and
  // Temporal retries it until a worker that knows the flow picks it up.
  if (!flow) throw new Error(`No flow is named "${workflowType}" in this worker's bundle`);
  return runFlowOnTemporal(flow, input as never);
}
