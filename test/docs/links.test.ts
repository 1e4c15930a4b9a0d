import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README is what a newcomer reads first, and docs/ is where it sends them: every relative link
 * must reach a file of the repository and every `#anchor` a heading of its target, or a reader
 * follows a link into nothing after a section moves.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README_MAX_LINES = 250;

async function documentedFiles(): Promise<string[]> {
  const docs = (await readdir(path.join(ROOT, 'docs')))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'SECURITY.md', ...docs];
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Fenced blocks blanked, so that line numbers still count: links and headings there are examples. */
function withoutFences(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** Outside fences, and without inline code spans: `[a](b)` written as code is an example too. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown)
    .split('\n')
    .map((line) => line.replace(/`[^`]*`/g, ''))
    .join('\n');
}

/** Every link target of a Markdown text with its line: `[text](target)`, `![alt](target)`, `<img src>`, `<a href>`. */
function linkTargets(markdown: string): { line: number; target: string }[] {
  const targets: { line: number; target: string }[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, index) => {
      for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        targets.push({ line: index + 1, target: match[1] });
      for (const match of text.matchAll(/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g))
        targets.push({ line: index + 1, target: match[1] });
    });
  return targets;
}

/**
 * What does not resolve, as "file:line target: why". `files` maps repository paths to their text;
 * a target outside it is looked up on disk under `root`.
 */
async function brokenLinks(files: Map<string, string>, root: string): Promise<string[]> {
  const problems: string[] = [];
  const textOf = async (file: string) => files.get(file) ?? (await readFile(path.join(root, file), 'utf8'));
  for (const [file, markdown] of files) {
    for (const { line, target } of linkTargets(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: outside the repository
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved =
        pathPart === ''
          ? file
          : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)));
      const where = `${file}:${line} ${target}`;
      if (resolved.startsWith('..')) {
        problems.push(`${where}: leaves the repository`);
        continue;
      }
      if (!files.has(resolved) && !existsSync(path.join(root, resolved))) {
        problems.push(`${where}: no file ${resolved}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!resolved.endsWith('.md')) {
        problems.push(`${where}: an anchor into a file that is not Markdown`);
        continue;
      }
      if (!headingAnchors(await textOf(resolved)).has(anchor))
        problems.push(`${where}: no heading #${anchor} in ${resolved}`);
    }
  }
  return problems;
}

describe('documentation links', () => {
  it('resolve: every relative link of README.md, SECURITY.md and docs/*.md names a file, every anchor a heading', async () => {
    const names = await documentedFiles();
    const files = new Map<string, string>();
    for (const name of names) files.set(name, await readFile(path.join(ROOT, name), 'utf8'));
    expect(names).toEqual(
      expect.arrayContaining([
        'docs/api.md',
        'docs/operations.md',
        'docs/performance.md',
        'docs/architecture.md',
        'docs/reliability.md',
      ]),
    );
    const linked = [...files.values()].reduce((sum, text) => sum + linkTargets(text).length, 0);
    expect(linked).toBeGreaterThan(50); // the scan still finds the links it checks
    expect(await brokenLinks(files, ROOT)).toEqual([]);
  });

  it('finds a missing file, a missing heading and a link out of the repository', async () => {
    const files = new Map([
      [
        'README.md',
        '# Title\n\nSee [ops](docs/ops.md#running-it), [gone](docs/gone.md), [up](../x.md), [self](#title), [no](#nope).\n\n```sh\n[not a link](nowhere.md)\n```\n',
      ],
      [
        'docs/ops.md',
        '# Operations\n\n## Running it\n\nBack to [the top](../README.md#title) and [missing](../README.md#missing).\n',
      ],
    ]);
    expect(await brokenLinks(files, ROOT)).toEqual([
      'README.md:3 docs/gone.md: no file docs/gone.md',
      'README.md:3 ../x.md: leaves the repository',
      'README.md:3 #nope: no heading #nope in README.md',
      'docs/ops.md:5 ../README.md#missing: no heading #missing in README.md',
    ]);
  });

  it('makes anchors as GitHub does', () => {
    const anchors = headingAnchors(
      '# Photobook service: API reference\n## The editor at /editor\n### `GET /healthz` and *more*\n## Limits\n## Limits\n## Health, logs and metrics\n',
    );
    expect([...anchors]).toEqual([
      'photobook-service-api-reference',
      'the-editor-at-editor',
      'get-healthz-and-more',
      'limits',
      'limits-1',
      'health-logs-and-metrics',
    ]);
  });

  it('keeps the README short enough to read in ten minutes', async () => {
    const text = await readFile(path.join(ROOT, 'README.md'), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
