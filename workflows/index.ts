import { projectBuildFlow } from './project-build';
import { projectExpungeFlow } from './project-expunge';
import { printFulfilmentFlow } from './print-fulfilment';
import { campaignFlow } from './campaign';
import { webhookDeliveryFlow } from './webhook-delivery';

/** Every flow of the service, for the embedded runner; workflows/temporal/ wraps the same ones. */
export const FLOWS = [projectBuildFlow, projectExpungeFlow, printFulfilmentFlow, campaignFlow, webhookDeliveryFlow];
