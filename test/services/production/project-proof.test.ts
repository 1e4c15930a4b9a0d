import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, type PDFNumber, type PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyRecord, Order, OrderLine, Project, Proof } from '../../../src/db/entities';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { changed, editableProject, printBody } from '../../support/print-fixtures';
import { editorCredentialsFor, editorHeaders } from '../../support/editor-link';
import { waitFor } from '../../support/wait';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A PDF's bytes in a file of its own, for poppler's tools. */
function pdfFile(bytes: Uint8Array): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'proof-')), 'file.pdf');
  writeFileSync(file, bytes);
  return file;
}

/** poppler's pdfinfo, as a printer's preflight reads a file: installed by scripts/install-test-tools.sh. */
const HAS_PDFINFO = (() => {
  try {
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Each page's image, read back by pdf-lib: its pixels across and its resolution on the page (pixels per inch). */
async function imageResolutions(bytes: Uint8Array): Promise<{ widthPx: number; ppi: number }[]> {
  const pdf = await PDFDocument.load(bytes);
  return pdf.getPages().flatMap((page) => {
    const xObjects = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
    return xObjects.values().map((ref) => {
      const image = pdf.context.lookup(ref) as PDFRawStream;
      const widthPx = (image.dict.lookup(PDFName.of('Width')) as PDFNumber).asNumber();
      return { widthPx, ppi: Math.round(widthPx / (page.getWidth() / 72)) };
    });
  });
}

/** `pdfinfo`'s fields of a PDF. */
function pdfinfo(bytes: Uint8Array): Record<string, string> {
  const out = execFileSync('pdfinfo', [pdfFile(bytes)], { encoding: 'utf8' });
  return Object.fromEntries([...out.matchAll(/^([^:]+):\s*(.*)$/gm)].map(([, key, value]) => [key, value]));
}

/** How many print pages and cover sheets this service has rendered, from its own /metrics. */
async function renderCount(api: TestService): Promise<number> {
  const text = await (await fetch(api.metricsUrl!)).text();
  let count = 0;
  for (const [, value] of text.matchAll(
    /^photobook_render_duration_seconds_count\{kind="(?:print_page|cover_sheet)"\} (\d+)$/gm,
  ))
    count += Number(value);
  return count;
}

interface ProofAnswer {
  proofId: string;
  files: { name: string; sha256: string; bytes: number; pages: number }[];
  previewUrl: string;
  expiresAt: number;
}

/**
 * Proofs over HTTP: a project's print files rendered before the order, deterministically, shown
 * as a watermarked low-resolution PDF, and an order held to them (the printer gets the proof's
 * bytes, or the order is refused when the book changed).
 */
describe('POST /v2/project/proof and /v2/print projects[].proofId', () => {
  let api: TestService;
  let owner: Record<string, string>;
  let ownerLive: Record<string, string>;
  let other: Record<string, string>;
  let photos: PhotoServer;
  let projectId: string;
  let first: ProofAnswer;
  let second: ProofAnswer;

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '100ms',
      PROOF_TTL: '2h',
      // A proof renders the whole book within the request; this machine is shared.
      REQUEST_TIMEOUT: '5m',
    });
    const shop = await api.createClient('Proof shop');
    owner = serviceHeader(shop.credentials.dev);
    ownerLive = serviceHeader(shop.credentials.prod);
    other = serviceHeader((await api.createClient('Someone else')).credentials.dev);
    photos = await startPhotoServer({
      '/a.jpg': { body: await makePhoto({ width: 1800, height: 1800, takenAt: '2024:07:01 10:00:00' }) },
      '/b.jpg': {
        body: await makePhoto({ width: 1800, height: 1800, colour: '#c0392b', takenAt: '2024:07:02 10:00:00' }),
      },
      '/c.jpg': {
        body: await makePhoto({ width: 1800, height: 1800, colour: '#27ae60', takenAt: '2024:07:03 10:00:00' }),
      },
    });
    projectId = await bookWithPhotos('proof@example.com', 'Porto');
  }, 180_000);
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  const bookWithPhotos = (email: string, title: string) =>
    editableProject(api, owner, {
      email,
      sku: 'PB-HC-15-S',
      custom: { title },
      photos: ['/a.jpg', '/b.jpg', '/c.jpg'].map((p) => photos.url(p)),
    });
  const proofOf = (id: string, auth = owner) => post(api.url, '/v2/project/proof', { id }, auth);
  const graphql = (query: string, variables: Record<string, unknown>, auth: Record<string, string>) =>
    post(api.url, '/graphql', { query, variables }, auth);
  const withProof = (orderId: string, id: string, proofId: string) =>
    changed(printBody(orderId, id), (body) => {
      body.projects[0].proofId = proofId;
    });
  /** A stored file of a proof, read from the store itself (the answer names no URL of the print files). */
  const proofFile = async (proofId: string, name: string) => {
    const orm = await api.orm();
    const proof = await orm.em.fork().findOneOrFail(Proof, { id: proofId }, { populate: ['project'], filters: false });
    const key = `${proof.client.id}/${proof.env}/projects/${proof.project.storageKey}/proofs/${proofId}/${name}`;
    return (await api.service.files.exists(key)) ? api.service.files.get(key) : null;
  };

  it('renders the same book to byte-identical cover.pdf and interior.pdf, over REST and GraphQL, dated with the fixed PDF/X date', async () => {
    const rest = await proofOf(projectId);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    first = rest.body;
    expect(first.proofId).toMatch(/^pr_[0-9A-Za-z]{24}$/);
    expect(first.files.map((f) => [f.name, f.pages])).toEqual([
      ['cover.pdf', 1],
      ['interior.pdf', 24],
    ]);
    // PROOF_TTL is 2 hours here.
    expect(first.expiresAt * 1000 - Date.now()).toBeGreaterThan(119 * 60_000);
    expect(first.expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(120 * 60_000 + 1000);

    // A second render of the unchanged book, through the GraphQL twin: the same bytes.
    const gql = await graphql(
      'mutation ($id: String!) { proofProject(id: $id) { proofId files { name sha256 bytes pages } previewUrl expiresAt } }',
      { id: projectId },
      owner,
    );
    expect(gql.body.errors).toBeUndefined();
    const twin = gql.body.data.proofProject;
    second = { ...twin, expiresAt: Math.floor(Date.parse(twin.expiresAt) / 1000) };
    expect(second.proofId).not.toBe(first.proofId);
    expect(second.files).toEqual(first.files);

    // The answered checksums are of the stored files, and their dates (which PDF/X requires) are fixed, not the time of rendering.
    for (const { name, sha256: answered, bytes } of first.files) {
      const stored = (await proofFile(first.proofId, name))!;
      expect(stored.length).toBe(bytes);
      expect(sha256(stored)).toBe(answered);
      expect(sha256((await proofFile(second.proofId, name))!)).toBe(answered);
      if (HAS_PDFINFO) {
        const info = pdfinfo(stored);
        expect(info.Pages).toBe(name === 'cover.pdf' ? '1' : '24');
        expect(info.CreationDate).toMatch(/2000/);
        expect(info.ModDate).toMatch(/2000/);
      }
    }
    // The page images were only the PDFs' material: a proof keeps its PDFs and preview.
    expect(await proofFile(first.proofId, 'pages/0001.jpg')).toBeNull();
  }, 300_000);

  it('serves a watermarked preview PDF at a lower resolution than the print files, and reads proofs back to their owner only', async () => {
    const response = await fetch(first.previewUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const preview = new Uint8Array(await response.arrayBuffer());
    const parsed = await PDFDocument.load(preview);
    expect(parsed.getPageCount()).toBe(25); // the cover sheet, then the 24 interior pages
    const interior = (await proofFile(first.proofId, 'interior.pdf'))!;
    const printed = await imageResolutions(interior);
    const shown = await imageResolutions(preview);
    expect(printed).toHaveLength(24);
    expect(shown).toHaveLength(25);
    expect(printed.every((image) => image.ppi === 300)).toBe(true);
    expect(shown.every((image) => image.ppi === 72)).toBe(true);
    expect(shown[1].widthPx).toBeLessThan(printed[0].widthPx / 4);
    // Each preview page is the size of its print page.
    const printPage = (await PDFDocument.load(interior)).getPage(0).getSize();
    const shownPage = parsed.getPage(1).getSize();
    expect(shownPage.width).toBeCloseTo(printPage.width, 1);
    expect(shownPage.height).toBeCloseTo(printPage.height, 1);
    if (HAS_PDFINFO) expect(pdfinfo(preview).Title).toBe('PROOF: Porto');

    // The owner reads the proof again with a fresh preview URL; nobody else reads it.
    const again = await request(api.url, 'GET', `/v2/project/proof?proofId=${first.proofId}`, { headers: owner });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ proofId: first.proofId, files: first.files, expiresAt: first.expiresAt });
    for (const auth of [other, ownerLive]) {
      const refused = await request(api.url, 'GET', `/v2/project/proof?proofId=${first.proofId}`, { headers: auth });
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 'NOT_FOUND', errors: [{ path: 'proofId' }] });
    }
    const viaGraphql = await graphql(
      'query ($id: String!) { proof(id: $id) { proofId } }',
      { id: first.proofId },
      other,
    );
    expect(viaGraphql.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'NOT_FOUND',
    ]);
    // Nor can another client proof the owner's project.
    const foreign = await proofOf(projectId, other);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', errors: [{ path: 'id' }] });
  });

  it("refuses another client's, an unknown, another project's and an expired proof, naming projects[0].proofId, and writes nothing", async () => {
    const foreignProject = await editableProject(api, other, { email: 'other@example.com' });
    const foreign = await post(api.url, '/v2/print', withProof('foreign-1', foreignProject, first.proofId), other);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', errors: [{ path: 'projects[0].proofId' }] });

    const unknown = await post(api.url, '/v2/print', withProof('unknown-1', projectId, 'pr_unknown'), owner);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', errors: [{ path: 'projects[0].proofId' }] });

    const anotherProject = await editableProject(api, owner, { email: 'another@example.com' });
    const mismatched = await post(api.url, '/v2/print', withProof('another-1', anotherProject, first.proofId), owner);
    expect(mismatched.status).toBe(400);
    expect(mismatched.body).toMatchObject({ errors: [{ path: 'projects[0].proofId' }] });

    const orm = await api.orm();
    await orm.em.fork().nativeUpdate(
      Proof,
      { id: second.proofId },
      { expiresAt: new Date(Date.now() - 1000) },
      {
        filters: false,
      },
    );
    const expired = await post(api.url, '/v2/print', withProof('expired-1', projectId, second.proofId), owner);
    expect(expired.status).toBe(409);
    expect(expired.body).toMatchObject({ code: 'PROOF_EXPIRED', errors: [{ path: 'projects[0].proofId' }] });

    const colour = changed(withProof('colour-1', projectId, first.proofId), (body) => {
      body.projects[0].metadata.colorCorrection = true;
    });
    const recoloured = await post(api.url, '/v2/print', colour, owner);
    expect(recoloured.status).toBe(409);
    expect(recoloured.body).toMatchObject({ code: 'PROOF_STALE', errors: [{ path: 'projects[0].proofId' }] });

    const em = orm.em.fork();
    expect(
      await em.count(
        Order,
        { orderId: { $in: ['foreign-1', 'unknown-1', 'another-1', 'expired-1', 'colour-1'] } },
        {
          filters: false,
        },
      ),
    ).toBe(0);
  }, 180_000);

  it('prints the proof: the printer gets files whose sha256 are the proof’s, and nothing is rendered again', async () => {
    const rendersBefore = await renderCount(api);
    const printed = await post(api.url, '/v2/print', withProof('proofed-1', projectId, first.proofId), owner);
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);

    const printFiles = async () =>
      (await request(api.url, 'GET', '/v2/order/print-files?orderId=proofed-1', { headers: owner })).body.lines[0];
    await waitFor(
      async () =>
        ['sent printjob', 'accepted', 'printing', 'printed', 'delivering', 'complete'].includes(
          (await printFiles()).status,
        ),
      120_000,
      'the job sent to the sandbox printer',
    );
    const { printFiles: files } = await printFiles();
    const cover = new Uint8Array(await (await fetch(files.coverPdfUrl)).arrayBuffer());
    const interior = new Uint8Array(await (await fetch(files.interiorPdfUrl)).arrayBuffer());
    const answered = Object.fromEntries(first.files.map((f) => [f.name, f.sha256]));
    expect(sha256(cover)).toBe(answered['cover.pdf']);
    expect(sha256(interior)).toBe(answered['interior.pdf']);
    const manifest = (await (await fetch(files.manifestUrl)).json()) as {
      orderId: string;
      cover: { sha256: string; bytes: number };
      interior: { sha256: string; pageCount: number };
    };
    expect(manifest).toMatchObject({
      orderId: 'proofed-1',
      cover: { sha256: answered['cover.pdf'], bytes: cover.length },
      interior: { sha256: answered['interior.pdf'], pageCount: 24 },
    });

    // No page was rendered for the line: the render count stands, and the line's folder has no page images.
    expect(await renderCount(api)).toBe(rendersBefore);
    const orm = await api.orm();
    const line = await orm.em
      .fork()
      .findOneOrFail(OrderLine, { order: { orderId: 'proofed-1' } }, { populate: ['order'], filters: false });
    const linePrefix = line.pdfKey!.replace(/\/interior\.pdf$/, '');
    expect(await api.service.files.exists(`${linePrefix}/pages/cover-sheet.jpg`)).toBe(false);
    expect(await api.service.files.exists(`${linePrefix}/pages/0001.jpg`)).toBe(false);
    // The files belong to the order now: the proof keeps its preview only.
    expect(await proofFile(first.proofId, 'interior.pdf')).toBeNull();
    expect(await proofFile(first.proofId, 'preview.pdf')).not.toBeNull();

    // A proof holds one order.
    const project2 = await post(api.url, '/v2/print', withProof('proofed-2', projectId, first.proofId), owner);
    expect(project2.status).toBe(409);
    expect(project2.body).toMatchObject({ code: 'PROOF_USED', errors: [{ path: 'projects[0].proofId' }] });
  }, 240_000);

  it('answers 409 PROOF_STALE once the book was edited in the editor, over REST, validateOnly and GraphQL, and writes nothing', async () => {
    const edited = await bookWithPhotos('stale@example.com', 'Before');
    const proof = await proofOf(edited);
    expect(proof.status, JSON.stringify(proof.body)).toBe(200);
    const { proofId } = proof.body as ProofAnswer;

    // The customer's editor link changes the cover title after the proof.
    const editor = editorHeaders(await editorCredentialsFor(api.url, owner, edited));
    const edit = await graphql(
      'mutation ($id: String!, $title: String!) { setCoverTexts(projectId: $id, title: $title) { cover { title } } }',
      { id: edited, title: 'After' },
      editor,
    );
    expect(edit.body.errors).toBeUndefined();

    const orm = await api.orm();
    const statusBefore = (await orm.em.fork().findOneOrFail(Project, { id: edited }, { filters: false })).status;
    const body = withProof('stale-1', edited, proofId);
    const refused = await post(api.url, '/v2/print', body, { ...owner, 'idempotency-key': 'stale-print-1' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'PROOF_STALE',
      errors: [{ path: 'projects[0].proofId', message: expect.stringContaining('changed since') }],
    });

    const validated = await post(api.url, '/v2/print', { ...body, validateOnly: true }, owner);
    expect(validated.status).toBe(200);
    expect(validated.body).toMatchObject({
      valid: false,
      problems: [{ code: 'PROOF_STALE', path: 'projects[0].proofId' }],
    });

    const viaGraphql = await graphql(
      'mutation ($input: PrintOrderInput!) { printOrder(input: $input) { message } }',
      { input: changed(body, (b) => (b.orderId = 'stale-2')) },
      owner,
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('PROOF_STALE');

    // Nothing was written: no order, no line, the project as it was, the proof unclaimed, and no
    // success stored under the Idempotency-Key.
    const em = orm.em.fork();
    expect(await em.count(Order, { orderId: { $in: ['stale-1', 'stale-2'] } }, { filters: false })).toBe(0);
    expect(await em.count(OrderLine, { project: edited }, { filters: false })).toBe(0);
    const project = await em.findOneOrFail(Project, { id: edited }, { filters: false });
    expect(project.status).toBe(statusBefore);
    expect(project.ordered).toBe(false);
    expect((await em.findOneOrFail(Proof, { id: proofId }, { filters: false })).orderLine).toBeNull();
    const stored = await em.find(IdempotencyRecord, { key: 'stale-print-1' }, { filters: false });
    expect(stored.every((record) => record.status !== 200)).toBe(true);

    // A new proof of the edited book holds the order.
    const fresh = await proofOf(edited);
    expect(fresh.status).toBe(200);
    expect((fresh.body as ProofAnswer).files[0].sha256).not.toBe(
      (proof.body as ProofAnswer).files.find((f) => f.name === 'cover.pdf')!.sha256,
    );
    const accepted = await post(api.url, '/v2/print', withProof('stale-3', edited, fresh.body.proofId), owner);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    // Making proofs cleared the files of the proof that expired unused; its record still says it expired.
    expect(await proofFile(second.proofId, 'interior.pdf')).toBeNull();
    expect(await proofFile(second.proofId, 'preview.pdf')).toBeNull();
    const expired = await request(api.url, 'GET', `/v2/project/proof?proofId=${second.proofId}`, { headers: owner });
    expect(expired.status).toBe(409);
    expect(expired.body).toMatchObject({ code: 'PROOF_EXPIRED', errors: [{ path: 'proofId' }] });
  }, 300_000);

  it("renders one proof of a client at a time (429 PROOF_IN_PROGRESS with Retry-After) and never holds back another client's", async () => {
    const theirs = await editableProject(api, other, {
      email: 'other@example.com',
      sku: 'PB-HC-15-S',
      custom: { title: 'Elsewhere' },
      photos: ['/a.jpg', '/b.jpg', '/c.jpg'].map((p) => photos.url(p)),
    });
    // Two of one client at once: their checks take milliseconds, a render seconds, so the second
    // finds the first rendering, whichever comes first.
    const [a, b, others] = await Promise.all([proofOf(projectId), proofOf(projectId), proofOf(theirs, other)]);
    expect(others.status, JSON.stringify(others.body)).toBe(200);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    const refused = a.status === 429 ? a : b;
    expect(refused.body).toMatchObject({ code: 'PROOF_IN_PROGRESS' });
    expect(refused.headers.get('retry-after')).toBe('5');
    // The turn is given back: the next proof of the client renders.
    expect((await proofOf(projectId)).status).toBe(200);
  }, 300_000);
});
