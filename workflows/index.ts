import { projectBuildFlow } from './project-build';
import { projectExpungeFlow } from './project-expunge';
import { printFulfilmentFlow } from './print-fulfilment';

/** Every flow of the service, for the embedded runner; workflows/temporal/ wraps the same ones. */
export const FLOWS = [projectBuildFlow, projectExpungeFlow, printFulfilmentFlow];
