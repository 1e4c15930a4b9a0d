import type { FlowContract, FlowStartOptions, SignalContract } from '../domain/flows';
import type { WorkflowEngine } from './workflow-engine';

/**
 * Activities start flows too (a campaign row starts its project's build, a ready project its
 * webhook delivery), but the engine is built from the activities. This stand-in is handed to the
 * activities first and pointed at the engine once it exists.
 */
export class LateBoundEngine implements WorkflowEngine {
  private engine?: WorkflowEngine;

  bind(engine: WorkflowEngine): void {
    this.engine = engine;
  }

  start<I>(flow: FlowContract<I>, input: NoInfer<I>, options: FlowStartOptions): Promise<void> {
    return this.bound().start(flow, input, options);
  }

  signal<P>(signal: SignalContract<P>, workflowId: string, payload: NoInfer<P>): Promise<void> {
    return this.bound().signal(signal, workflowId, payload);
  }

  async stop(): Promise<void> {
    // The owner of the real engine stops it.
  }

  private bound(): WorkflowEngine {
    if (!this.engine) throw new Error('the workflow engine is not ready yet');
    return this.engine;
  }
}
