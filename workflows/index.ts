import { projectBuildFlow } from './project-build';
import { projectExpungeFlow } from './project-expunge';
import { printFulfilmentFlow } from './print-fulfilment';
import { campaignFlow } from './campaign';
import { webhookDeliveryFlow } from './webhook-delivery';
import { uploadedPhotoFlow } from './uploaded-photo';
import type { AnyFlowDefinition } from './flow-context';

/** Every flow of the service, run by both engines (workflows/temporal/ runs the same list): its registration. */
export const FLOWS: AnyFlowDefinition[] = [
  projectBuildFlow,
  projectExpungeFlow,
  printFulfilmentFlow,
  campaignFlow,
  webhookDeliveryFlow,
  uploadedPhotoFlow,
];
