import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { FLOWS } from '../../workflows';
import * as flowContracts from '../../src/domain/flows';
import type { FlowContract } from '../../src/domain/flows';
import * as temporalWorkflows from '../../workflows/temporal';
import { TEMPORAL_WORKFLOWS_PATH } from '../../src/engine/temporal-worker';

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Collects what webpack reports, so a failed bundle says why. */
function collectingLogger() {
  const errors: string[] = [];
  const ignore = () => {};
  return {
    errors,
    logger: {
      log: ignore,
      trace: ignore,
      debug: ignore,
      info: ignore,
      warn: ignore,
      error: (message: string) => errors.push(message),
    },
  };
}

describe('Temporal workflow bundle', () => {
  it('bundles workflows/temporal/index.ts for the sandbox (no Node built-ins or src/ runtime code)', async () => {
    const { errors, logger } = collectingLogger();
    const bundle = await bundleWorkflowCode({ workflowsPath: TEMPORAL_WORKFLOWS_PATH, logger });
    expect(errors).toEqual([]);
    expect(bundle.code.length).toBeGreaterThan(0);
  }, 120_000);

  it('registers every flow contract of src/domain/flows once, for both engines', () => {
    // Both engines run FLOWS: the embedded one registers the list, Temporal's one dynamic workflow
    // (workflows/temporal's default export) looks the run's type up in it.
    const contracts = Object.values(flowContracts).filter(
      (value): value is FlowContract<unknown> =>
        typeof value === 'object' && value !== null && 'workflowId' in value && 'name' in value,
    );
    expect(contracts.length).toBeGreaterThan(0);
    expect(FLOWS.map((flow) => flow.contract).sort(byName)).toEqual(contracts.sort(byName));
    expect(new Set(FLOWS.map((flow) => flow.contract.name)).size).toBe(FLOWS.length);
    const exported = Object.entries(temporalWorkflows).filter(([, value]) => typeof value === 'function');
    expect(exported.map(([name]) => name)).toEqual(['default']);
  });

  it('bundles the test flows the Temporal tests run', async () => {
    await expect(
      bundleWorkflowCode({ workflowsPath: fixture('temporal-index.ts'), logger: collectingLogger().logger }),
    ).resolves.toBeTruthy();
  }, 120_000);

  it('refuses workflow code that imports a Node built-in', async () => {
    const { errors, logger } = collectingLogger();
    await expect(
      bundleWorkflowCode({ workflowsPath: fixture('disallowed-import-workflow.ts'), logger }),
    ).rejects.toThrow(/Webpack finished with errors/);
    expect(errors.join('\n')).toMatch(/node:fs/);
  }, 120_000);
});
