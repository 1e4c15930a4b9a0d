import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_FLOW,
  PRINT_FULFILMENT_FLOW,
  PROJECT_BUILD_FLOW,
  PROJECT_EXPUNGE_FLOW,
  STATUS_UPDATE_SIGNAL,
  WEBHOOK_DELIVERY_FLOW,
  projectOfBuild,
  orderLineOfFulfilment,
  type WorkflowEngine,
} from '../../src/domain/flows';

const tenant = { clientId: 'client-1', env: 'prod' as const };

/**
 * The contracts give every run the name and workflow id earlier releases gave it: DBOS and Temporal
 * find runs under way by them, so a change here would orphan a fulfilment waiting for its printer.
 */
describe('flow contracts', () => {
  it('keep the flow names and workflow ids of runs under way', () => {
    expect(
      [PROJECT_BUILD_FLOW, PROJECT_EXPUNGE_FLOW, PRINT_FULFILMENT_FLOW, CAMPAIGN_FLOW, WEBHOOK_DELIVERY_FLOW].map(
        (flow) => flow.name,
      ),
    ).toEqual(['projectBuild', 'projectExpunge', 'printFulfilment', 'campaign', 'webhookDelivery']);
    expect(PROJECT_BUILD_FLOW.workflowId({ projectId: 'p1' }, tenant)).toBe('project-build:p1');
    expect(PROJECT_BUILD_FLOW.workflowId({ projectId: 'p1', orderLineId: 'l1' }, tenant)).toBe('project-build:p1:l1');
    expect(PROJECT_BUILD_FLOW.workflowId({ projectId: 'p1', rebuildAt: 1700000000000 }, tenant)).toBe(
      'project-build:p1:rebuild-1700000000000',
    );
    expect(PROJECT_EXPUNGE_FLOW.workflowId({ projectId: 'p1', retentionMs: 1 }, tenant)).toBe('project-expunge:p1');
    expect(PRINT_FULFILMENT_FLOW.workflowId({ lineId: 'l1', assetsTimeoutMs: 1, sandboxStepMs: 1 }, tenant)).toBe(
      'fulfilment:l1',
    );
    expect(CAMPAIGN_FLOW.workflowId({ campaignId: 'c1' }, tenant)).toBe('campaign:client-1:c1');
    expect(WEBHOOK_DELIVERY_FLOW.workflowId({ deliveryId: 'd1', retrySpacingMs: 1 }, tenant)).toBe('webhook:d1');
    expect(WEBHOOK_DELIVERY_FLOW.workflowId({ deliveryId: 'd1', retrySpacingMs: 1, round: 0 }, tenant)).toBe(
      'webhook:d1',
    );
    expect(WEBHOOK_DELIVERY_FLOW.workflowId({ deliveryId: 'd1', retrySpacingMs: 1, round: 2 }, tenant)).toBe(
      'webhook:d1:replay-2',
    );
    expect(STATUS_UPDATE_SIGNAL.name).toBe('statusUpdate');
  });

  it('read the project or order line back from a workflow id', () => {
    expect(projectOfBuild('project-build:p1:rebuild-5')).toBe('p1');
    expect(projectOfBuild('fulfilment:l1')).toBeUndefined();
    expect(orderLineOfFulfilment('fulfilment:l1')).toBe('l1');
    expect(orderLineOfFulfilment('project-build:p1')).toBeUndefined();
  });

  it('make a start with the wrong input, or a signal with the wrong payload, a type error', () => {
    // Checked by `npm run typecheck` (CI runs it): each @ts-expect-error fails the type-check if
    // the line below it ever compiles. The function is never called.
    const misuse = (engine: WorkflowEngine) => {
      // @ts-expect-error a print fulfilment is started for an order line, not a project
      void engine.start(PRINT_FULFILMENT_FLOW, { projectId: 'p1' }, { tenant });
      // @ts-expect-error a build's input has no campaign
      void engine.start(PROJECT_BUILD_FLOW, { campaignId: 'c1' }, { tenant });
      // @ts-expect-error the status update carries an order status
      void engine.signal(STATUS_UPDATE_SIGNAL, 'fulfilment:l1', { status: 'teleported' });
      void engine.signal(STATUS_UPDATE_SIGNAL, 'fulfilment:l1', { status: 'printed' });
    };
    expect(misuse).toBeTypeOf('function');
  });
});
