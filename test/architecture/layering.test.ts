import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

/** The rules of .dependency-cruiser.cjs applied to `dirs` under `baseDir`, one line per violation. */
async function violations(baseDir: string, dirs: string[], options: Partial<ICruiseOptions> = {}): Promise<string[]> {
  const configured = await extractDepcruiseOptions(CONFIG);
  const cruiseOptions: ICruiseOptions = { ...configured, ...options, baseDir, validate: true };
  const transpile = cruiseOptions.tsConfig ? { tsConfig: extractTSConfig(path.join(baseDir, 'tsconfig.json')) } : {};
  const { output } = await cruise(dirs, cruiseOptions, {}, transpile);
  if (typeof output === 'string') throw new Error('expected a cruise result, got a report');
  return output.summary.violations.map(describeViolation).sort();
}

function describeViolation(violation: IViolation): string {
  const through = violation.cycle?.length ? ` (cycle: ${violation.cycle.map((step) => step.name).join(' → ')})` : '';
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${through}`;
}

describe('the layering of src/ and workflows/', () => {
  it('has no upward import, no folder cycle and no module outside a layer', async () => {
    expect(await violations(ROOT, ['src', 'workflows'])).toEqual([]);
  });
});

describe('the dependency rules themselves', () => {
  let fixture: string;

  // A tiny tree with one mistake of each kind, laid out like the real one.
  const files: Record<string, string> = {
    'src/domain/order-status.ts': "import { audit } from '../services/audit';\nexport const statuses = [audit];\n",
    'src/services/audit.ts': 'export const audit = 1;\n',
    'src/storage/files.ts': "import { fetchIt } from '../outbound/fetch';\nexport const files = fetchIt;\n",
    'src/outbound/fetch.ts':
      "import type { files } from '../storage/files';\nexport const fetchIt = (f?: typeof files) => f;\n",
    'src/activities/render.ts':
      "import { files } from '../storage/files';\nimport type { fetchIt } from '../outbound/fetch';\n" +
      "import { audit } from '../services/audit';\n" +
      'export async function render(f?: typeof fetchIt): Promise<void> {\n  void [files, audit, f];\n}\n',
    'workflows/print.ts':
      "import type { render } from '../src/activities/render';\nimport { render as loaded } from '../src/activities/render';\nexport const flow: typeof render = loaded;\n",
    'src/reports/weekly.ts': "import { audit } from '../services/audit';\nexport const weekly = audit;\n",
  };

  beforeAll(async () => {
    fixture = await mkdtemp(path.join(tmpdir(), 'layers-'));
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(fixture, file)), { recursive: true });
      await writeFile(path.join(fixture, file), text);
    }
  });
  afterAll(() => rm(fixture, { recursive: true, force: true }));

  it('reports an upward import, a folder cycle, a flow or a step loading what it may not, a stray folder', async () => {
    const found = await violations(fixture, ['src', 'workflows'], { tsConfig: undefined });
    expect(found).toEqual(
      expect.arrayContaining([
        'no-upward-from-domain: src/domain/order-status.ts → src/services/audit.ts',
        expect.stringMatching(/^no-folder-cycle: src\/(storage|outbound) → src\/(outbound|storage)/),
        'workflows-import-activities-as-types-only: workflows/print.ts → src/activities/render.ts',
        'activities-import-only-services-and-domain: src/activities/render.ts → src/storage/files.ts',
        'in-a-layer: src/reports/weekly.ts → src/services/audit.ts',
      ]),
    );
    // An activity names a lower layer's type (erased) and loads services freely.
    expect(found.filter((line) => line.startsWith('activities-'))).toHaveLength(1);
    // The type-only import of the same activity is allowed: it is erased before the workflow runs.
    expect(found.filter((line) => line.startsWith('workflows-'))).toHaveLength(1);
  });
});
