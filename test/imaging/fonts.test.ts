import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'fonts-render-child.ts');

type Renders = Record<string, { sha256: string; ink: number }>;

let scratch: string;
let emptyConfig: string;

/** The child's renders, in a process whose environment has FONTCONFIG_FILE as given (unset: the host's). */
async function renderIn(fontconfigFile: string | undefined, ...args: string[]) {
  const env = { ...process.env };
  delete env.FONTCONFIG_FILE;
  if (fontconfigFile) env.FONTCONFIG_FILE = fontconfigFile;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    env,
    timeout: 120_000,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { fontconfigFile?: string; result: Renders };
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'fonts-test-'));
  // A fontconfig that knows no font at all: an empty folder, no system folder, no include.
  await writeFile(
    (emptyConfig = path.join(scratch, 'empty.conf')),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig><dir>${scratch}</dir></fontconfig>\n`,
  );
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('text is drawn in the fonts that ship with the project, never the host’s', () => {
  it('the control: on this host, an empty fontconfig changes text drawn by fontconfig’s own choice', async () => {
    // Without this, the next test could pass on a host with no fonts for reasons of its own.
    const host = await renderIn(undefined, '--raw');
    const none = await renderIn(emptyConfig, '--raw');
    expect(host.result.svg.ink).toBeGreaterThan(2000);
    expect(none.result.svg.sha256).not.toBe(host.result.svg.sha256);
  });

  it('renders cover preview, page text and cover sheet identically with the host’s fonts and with none, ink present', async () => {
    const host = await renderIn(undefined);
    const none = await renderIn(emptyConfig);
    // The service points fontconfig at its own configuration whatever the environment said.
    expect(none.fontconfigFile).toBe(host.fontconfigFile);
    expect(existsSync(host.fontconfigFile!)).toBe(true);
    expect(none.result).toEqual(host.result);
    for (const kind of ['coverPreview', 'pageText', 'coverSheet'] as const) {
      // Ink: the text drew glyphs (hundreds of pixels at 100 DPI), not nothing or a few boxes.
      expect(host.result[kind].ink, kind).toBeGreaterThan(500);
    }
    // A family the host has (DejaVu Sans comes with Chromium's packages here) is not reachable: it
    // resolves to the shipped sans, like any family the project does not ship.
    expect(host.result.dejaVuSans.sha256).toBe(host.result.sourceSans3.sha256);
  });
});
