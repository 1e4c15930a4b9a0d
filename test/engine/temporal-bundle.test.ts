import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { FLOWS } from '../../workflows';
import * as temporalWorkflows from '../../workflows/temporal';
import { TEMPORAL_WORKFLOWS_PATH } from '../../src/engine/temporal-worker';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Collects what webpack reports, so a failed bundle says why. */
function collectingLogger() {
  const errors: string[] = [];
  const ignore = () => {};
  return {
    errors,
    logger: { log: ignore, trace: ignore, debug: ignore, info: ignore, warn: ignore, error: (message: string) => errors.push(message) },
  };
}

describe('Temporal workflow bundle', () => {
  it('bundles workflows/temporal/index.ts for the sandbox (no Node built-ins or src/ runtime code)', async () => {
    const { errors, logger } = collectingLogger();
    const bundle = await bundleWorkflowCode({ workflowsPath: TEMPORAL_WORKFLOWS_PATH, logger });
    expect(errors).toEqual([]);
    expect(bundle.code.length).toBeGreaterThan(0);
  }, 120_000);

  it('exports one Temporal workflow per flow, named like the flow', () => {
    const exported = Object.entries(temporalWorkflows)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    expect(exported).toEqual(FLOWS.map((flow) => flow.name).sort());
  });

  it('bundles the test flows the Temporal tests run', async () => {
    await expect(bundleWorkflowCode({ workflowsPath: fixture('temporal-index.ts'), logger: collectingLogger().logger })).resolves.toBeTruthy();
  }, 120_000);

  it('refuses workflow code that imports a Node built-in', async () => {
    const { errors, logger } = collectingLogger();
    await expect(bundleWorkflowCode({ workflowsPath: fixture('disallowed-import-workflow.ts'), logger })).rejects.toThrow(
      /Webpack finished with errors/,
    );
    expect(errors.join('\n')).toMatch(/node:fs/);
  }, 120_000);
});
