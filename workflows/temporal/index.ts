/**
 * The Temporal workflows: one per flow of workflows/, named like the flow (`flow.name` is the
 * workflow type the engine starts). The worker bundles this file (src/worker.ts).
 */
import { projectBuildFlow, type ProjectBuildInput } from '../project-build';
import { projectExpungeFlow, type ProjectExpungeInput } from '../project-expunge';
import { printFulfilmentFlow, type PrintFulfilmentInput } from '../print-fulfilment';
import { campaignFlow, type CampaignInput } from '../campaign';
import { webhookDeliveryFlow, type WebhookDeliveryFlowInput } from '../webhook-delivery';
import { runFlowOnTemporal } from './run-flow';

export async function projectBuild(input: ProjectBuildInput) {
  return runFlowOnTemporal(projectBuildFlow, input);
}

export async function projectExpunge(input: ProjectExpungeInput) {
  return runFlowOnTemporal(projectExpungeFlow, input);
}

export async function printFulfilment(input: PrintFulfilmentInput) {
  return runFlowOnTemporal(printFulfilmentFlow, input);
}

export async function campaign(input: CampaignInput) {
  return runFlowOnTemporal(campaignFlow, input);
}

export async function webhookDelivery(input: WebhookDeliveryFlowInput) {
  return runFlowOnTemporal(webhookDeliveryFlow, input);
}
