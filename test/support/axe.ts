import axe from 'axe-core';
import type { Frame, Page } from 'playwright-core';

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * What axe-core finds on the page (or frame) as it is now, one line per rule: `id (impact): targets`.
 * `tags` limits the rules (default: every rule axe runs, WCAG and best practice); `impacts` keeps only
 * violations of those impacts (default: all).
 */
export async function accessibilityViolations(
  page: Page | Frame,
  options: { tags?: string[]; impacts?: string[] } = {},
): Promise<string[]> {
  // Evaluated by the DevTools protocol, not as a page script: the pages' CSP allows no inline script.
  await page.evaluate(axe.source);
  const result = await page.evaluate(
    (tags) =>
      (globalThis as any).axe.run(
        (globalThis as any).document,
        tags ? { runOnly: { type: 'tag', values: tags } } : { resultTypes: ['violations'] },
      ),
    options.tags,
  );
  return (result.violations as Violation[])
    .filter((v) => !options.impacts || options.impacts.includes(v.impact ?? ''))
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The violations a customer or an operator would be stopped by: impact serious or critical. */
export const seriousAccessibilityViolations = (page: Page | Frame) =>
  accessibilityViolations(page, { impacts: ['serious', 'critical'] });
