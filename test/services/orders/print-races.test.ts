import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { editorCredentialsFor, editorHeaders, type EditorCredentials } from '../../support/editor-link';

/*
 * Issue 39, races where money is: an editor edit racing a print must not get a bigger book at the
 * quoted price, and the same print sent several times at once must make one order and no 500.
 * Real HTTP and PostgreSQL, the editor over its own link.
 */

const ADD_PAGES =
  'mutation ($id: String!, $after: Int!) { addPages(projectId: $id, after: $after) { pages { number } } }';
const RUNS = 50;

describe('races between an order and what it orders', () => {
  let api: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    auth = serviceHeader((await api.createClient('Racing shop')).credentials.dev);
  });
  afterAll(() => api?.stop());

  const db = async () => (await api.orm()).em.getConnection();
  /** The interior pages of a project's book as stored now. */
  const pagesOf = async (projectId: string) =>
    Number(
      (
        await (
          await db()
        ).execute(`SELECT jsonb_array_length(book -> 'pages') AS n FROM projects WHERE id = ?`, [projectId])
      )[0].n,
    );

  /** GraphQL with the editor link's credential, as the editor page sends it. */
  const editor = async (credentials: EditorCredentials, query: string, variables: Record<string, unknown>) => {
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...editorHeaders(credentials) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  };

  it(`never orders a book with more pages than the order priced: addPages 0-7 ms after a print holding metadata.pageCount, ${RUNS} times`, async () => {
    const projects: string[] = [];
    for (let batch = 0; batch < RUNS; batch += 10) {
      projects.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, i) => editableProject(api, auth, { userId: `racer-${batch + i}` })),
        )),
      );
    }
    const outcomes = { printed: 0, refused: 0, editedFirst: 0 };
    for (const [run, projectId] of projects.entries()) {
      const priced = await pagesOf(projectId);
      const credentials = await editorCredentialsFor(api.url, auth, projectId);
      const body: any = printBody(`race-${run}`, projectId);
      body.projects[0].metadata = { pageCount: priced };
      // Placed before payment: the lines wait instead of rendering 50 books meanwhile.
      body.paymentPending = true;
      const [printed, edited] = await Promise.all([
        post(api.url, '/v2/print', body, auth),
        sleep(run % 8).then(() => editor(credentials, ADD_PAGES, { id: projectId, after: priced })),
      ]);
      const label = `run ${run}: print ${printed.status} ${JSON.stringify(printed.body)}, edit ${JSON.stringify(edited)}`;
      if (!edited.errors) outcomes.editedFirst++;
      if (printed.status === 200) {
        outcomes.printed++;
        // The book the order holds (ordered: no edit changes it any more) is the book it priced.
        expect(await pagesOf(projectId), label).toBe(priced);
        if (!edited.errors) throw new Error(`both the print and the edit succeeded: ${label}`);
        expect(edited.errors[0].extensions?.code, label).toBe('PROJECT_ORDERED');
      } else {
        outcomes.refused++;
        expect(printed.status, label).toBe(409);
        expect(printed.body.code, label).toBe('PAGE_COUNT_MISMATCH');
        expect(
          printed.body.errors.map((e: any) => e.path),
          label,
        ).toEqual(['projects[0].metadata.pageCount']);
        expect(edited.errors, label).toBeUndefined();
      }
    }
    // Every order line written holds the page count its order stated.
    const lines = await (await db()).execute(
      `SELECT l.metadata ->> 'pageCount' AS priced, jsonb_array_length(p.book -> 'pages') AS pages FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN projects p ON p.id = l.project_id WHERE o.order_id LIKE 'race-%'`,
    );
    expect(lines).toHaveLength(outcomes.printed);
    for (const line of lines) expect(Number(line.pages)).toBe(Number(line.priced));
    expect(outcomes.printed + outcomes.refused).toBe(RUNS);
    console.log(
      `edit against print, ${RUNS} runs: ${outcomes.printed} printed at the priced count, ${outcomes.refused} refused with PAGE_COUNT_MISMATCH, ${outcomes.editedFirst} edits committed`,
    );
  }, 300_000);

  it('answers the same print sent three times at once, without an Idempotency-Key, with one order and no 500', async () => {
    for (let run = 0; run < 5; run++) {
      const projectId = await editableProject(api, auth, { userId: `duplicate-${run}` });
      const body = { ...printBody(`duplicate-${run}`, projectId), paymentPending: true };
      const answers = await Promise.all([1, 2, 3].map(() => post(api.url, '/v2/print', body, auth)));
      const statuses = answers.map((a) => a.status);
      for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
      expect(statuses.filter((s) => s === 200).length, JSON.stringify(statuses)).toBeGreaterThanOrEqual(1);
      // Every 200 is the one order's confirmation.
      const messages = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.message));
      expect(messages.size).toBe(1);
      const [row] = await (await db()).execute(
        `SELECT count(DISTINCT o.id) AS orders, count(l.id) AS lines FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.order_id = ?`,
        [`duplicate-${run}`],
      );
      expect([Number(row.orders), Number(row.lines)]).toEqual([1, 1]);
    }
  }, 120_000);

  it('answers the same orderId sent at once with two different orders with one order and a 409, never a 500', async () => {
    const projectId = await editableProject(api, auth, { userId: 'duplicate-other' });
    const one = { ...printBody('duplicate-other', projectId), paymentPending: true };
    const other = structuredClone(one);
    other.user.firstName = 'Grace';
    const answers = await Promise.all([post(api.url, '/v2/print', one, auth), post(api.url, '/v2/print', other, auth)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('IDEMPOTENCY_CONFLICT');
  }, 60_000);
});
