import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errorCodesInSource } from '../support/error-codes-in-source';
import {
  displayStatusOf,
  ORDER_STATUS_MEANINGS,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
} from '../../src/domain/order-status';
import { ERROR_EXPLANATIONS } from '../../src/domain/error-explanations';
import {
  PHOTO_STATUSES,
  PHOTOS_STATUSES,
  PROJECT_STATUSES,
  PROJECT_TRANSITIONS,
} from '../../src/domain/project-status';

/**
 * docs/api.md is what integrators read: its status tables must say exactly what the code's tables
 * allow, so a status or a move added in the code fails here until the reference says it too.
 */
const apiDoc = () => readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** The rows of the first table after the line starting with `marker`, header and separator left out. */
function tableAfter(markdown: string, marker: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(marker));
  if (start < 0) throw new Error(`docs/api.md has no line starting with "${marker}"`);
  const first = lines.findIndex((line, i) => i > start && line.startsWith('|'));
  const rows: string[][] = [];
  for (let i = first + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    rows.push(
      lines[i]
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, '');
/** "`a`, `b`" -> ['a', 'b']; "(none)" -> []. */
const statusList = (cell: string) => (cell === '(none)' ? [] : cell.split(', ').map(unquote));

describe('docs/api.md', () => {
  it("lists the 28 order line statuses in the code's order, with their meaning, display status and moves", async () => {
    const rows = tableAfter(await apiDoc(), '### Order line statuses');
    expect(rows.map(([status]) => unquote(status))).toEqual([...ORDER_STATUSES]);
    for (const [status, meaning, shown, moves] of rows) {
      const from = unquote(status) as (typeof ORDER_STATUSES)[number];
      expect(meaning, from).toBe(ORDER_STATUS_MEANINGS[from]);
      expect(shown, from).toBe(displayStatusOf(from));
      expect(statusList(moves), from).toEqual([...ORDER_TRANSITIONS[from]]);
    }
  });

  it('lists the project statuses and their moves exactly as the code allows them', async () => {
    const rows = tableAfter(await apiDoc(), '### Project statuses');
    expect(rows.map(([status]) => unquote(status))).toEqual([...PROJECT_STATUSES]);
    for (const [status, , moves] of rows) {
      const from = unquote(status) as (typeof PROJECT_STATUSES)[number];
      expect(statusList(moves), from).toEqual([...PROJECT_TRANSITIONS[from]]);
    }
  });

  it('lists the photos status of a project and the status of one photo as the code has them', async () => {
    const markdown = await apiDoc();
    const summary = tableAfter(markdown, '### Photo statuses');
    const perPhoto = tableAfter(markdown, 'Each photo has its own status');
    expect(summary.map(([status]) => unquote(status))).toEqual([...PHOTOS_STATUSES]);
    expect(perPhoto.map(([status]) => unquote(status))).toEqual([...PHOTO_STATUSES]);
  });

  it('documents every error code the service answers with', async () => {
    const markdown = await apiDoc();
    const codes = await errorCodesInSource();
    expect(codes.size).toBeGreaterThan(20); // the scan below still finds the service's errors
    const missing = [...codes].filter((code) => !markdown.includes(`\`${code}\``));
    expect(missing, 'codes thrown in src/ but absent from docs/api.md').toEqual([]);
  });

  it('lists the error codes as src/domain/error-explanations.ts explains them (/problems/<code>)', async () => {
    const rows = tableAfter(await apiDoc(), '### Error codes');
    const codeCell = (codes: readonly string[]) => codes.map((code) => `\`${code}\``).join(', ');
    const fromCode = ERROR_EXPLANATIONS.map(({ status, codes, when }) => [String(status), codeCell(codes), when]);
    expect(rows).toEqual(fromCode);
  });

  it('links no file outside the repository', async () => {
    for (const file of [
      '../../docs/api.md',
      '../../docs/architecture.md',
      '../../docs/operations.md',
      '../../docs/performance.md',
      '../../docs/reliability.md',
      '../../README.md',
    ]) {
      const text = await readFile(new URL(file, import.meta.url), 'utf8');
      expect(text, file).not.toMatch(/\]\(\.\.\/\.\.\/|\]\(\.\.\/shared|\.\.\/shared\//);
    }
  });
});
