import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium, installed by scripts/install-test-tools.sh (called from .ci/run); CHROMIUM_PATH overrides. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserAvailable = existsSync(CHROMIUM_PATH);
export const NO_BROWSER_REASON = `no Chromium at ${CHROMIUM_PATH}: run scripts/install-test-tools.sh (as root) or set CHROMIUM_PATH; the browser tests are skipped`;

/** A headless Chromium with a fresh profile that talks to nothing but what a test opens on loopback. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'photobook-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: { width: 1280, height: 900 },
    // The service's modules point this process's fontconfig at the print fonts (src/imaging/fonts.ts);
    // the browser draws the pages with a machine's own fonts, as a customer's would.
    env: Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => entry[0] !== 'FONTCONFIG_FILE'),
    ),
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
