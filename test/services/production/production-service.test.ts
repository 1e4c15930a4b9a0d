import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFNumber, type PDFRawStream, type PDFPage } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order, OrderLine, Photo, Project, StatusEvent } from '../../../src/db/entities';
import { CoverDimensionsDocument, PrintOrderDocument, ProjectPreflightDocument } from '../../support/generated/graphql';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { editableProject, printBody } from '../../support/print-fixtures';
import { waitFor } from '../../support/wait';
import { graphql as graphqlAt } from '../../support/graphql';
import { expectPdfx4, popplerReading } from '../../support/pdfx';

const MM = 72 / 25.4;
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** poppler's pdfinfo, as a printer's preflight reads a file: installed by scripts/install-test-tools.sh. */
const HAS_PDFINFO = (() => {
  try {
    execFileSync('pdfinfo', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** `pdfinfo -box` of a PDF: its page count and each page box as [x0, y0, x1, y1] in points. */
function pdfinfoBoxes(bytes: Uint8Array): { pages: number; boxes: Record<string, number[]> } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'pdfinfo-')), 'file.pdf');
  writeFileSync(file, bytes);
  const out = execFileSync('pdfinfo', ['-box', file], { encoding: 'utf8' });
  const boxes: Record<string, number[]> = {};
  for (const [, name, numbers] of out.matchAll(/^(MediaBox|CropBox|BleedBox|TrimBox|ArtBox):\s+(.+)$/gm))
    boxes[name] = numbers.trim().split(/\s+/).map(Number);
  return { pages: Number(/^Pages:\s+(\d+)/m.exec(out)![1]), boxes };
}

describe('print production: cover dimensions, preflight, cover.pdf and interior.pdf', () => {
  let api: TestService;
  let owner: Record<string, string>;
  let other: Record<string, string>;
  let photos: PhotoServer;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms' });
    owner = serviceHeader((await api.createClient('Production shop')).credentials.dev);
    other = serviceHeader((await api.createClient('Someone else')).credentials.dev);
    photos = await startPhotoServer({
      '/a.jpg': { body: await makePhoto({ width: 2600, height: 3500, takenAt: '2024:07:01 10:00:00' }) },
      '/b.jpg': {
        body: await makePhoto({ width: 2600, height: 3500, colour: '#c0392b', takenAt: '2024:07:02 10:00:00' }),
      },
      '/c.jpg': {
        body: await makePhoto({ width: 2600, height: 3500, colour: '#27ae60', takenAt: '2024:07:03 10:00:00' }),
      },
    });
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  const graphql = <R, V>(document: TypedDocumentNode<R, V>, variables: V, auth: Record<string, string>) =>
    graphqlAt(api.url, auth, document, variables);
  const dimensions = (query: string, auth = owner) =>
    request(api.url, 'GET', `/v2/product/cover-dimensions?${query}`, { headers: auth });
  const preflight = (id: string, auth = owner) =>
    request(api.url, 'GET', `/v2/project/preflight?id=${id}`, { headers: auth });
  /** GraphQL's nulls are REST's absent fields. */
  const withoutNulls = <T>(value: T): T => JSON.parse(JSON.stringify(value, (_, v) => (v === null ? undefined : v)));

  describe('GET /v2/product/cover-dimensions and coverDimensions', () => {
    it.each([
      ['PB-HC-A4-P', 24, 0.15, 2.5],
      ['PB-SC-A5-P', 24, 0.14, 0.35],
      ['PB-LF-30-S', 20, 0.45, 3],
    ])(
      '%s: the sheet grows with the page count by the catalogue leaf thickness, alike in both transports',
      async (sku, min, leaf, board) => {
        const first = await dimensions(`sku=${sku}&pages=${min}`);
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        const next = await dimensions(`sku=${sku}&pages=${min + 10}`);
        expect(first.body.spineWidthMm).toBeCloseTo((min / 2) * leaf + 2 * board, 6);
        expect(next.body.spineWidthMm - first.body.spineWidthMm).toBeCloseTo(5 * leaf, 6);
        expect(next.body.widthMm - first.body.widthMm).toBeCloseTo(5 * leaf, 6);
        expect(next.body.widthPt).toBeCloseTo(next.body.widthMm * MM, 1);
        expect(next.body.spine.xMm + next.body.spine.widthMm + next.body.hingeMm).toBeCloseTo(next.body.front.xMm, 6);

        const gql = await graphql(CoverDimensionsDocument, { sku, pages: min + 10 }, owner);
        expect(gql.errors).toBeUndefined();
        expect(gql.data!.coverDimensions).toEqual(next.body);
      },
    );

    it('A4 hardcover, 24 pages, in full', async () => {
      const response = await dimensions('sku=PB-HC-A4-P&pages=24');
      expect(response.body).toMatchObject({
        sku: 'PB-HC-A4-P',
        binding: 'hardcover',
        pages: 24,
        widthMm: 478.8,
        heightMm: 333,
        spineWidthMm: 6.8,
        bleedMm: 3,
        wrapMm: 15,
        hingeMm: 8,
        spineText: false,
        back: { xMm: 18, yMm: 18, widthMm: 210, heightMm: 297 },
        spine: { xMm: 236, widthMm: 6.8 },
        front: { xMm: 250.8, widthMm: 210 },
      });
    });

    it('refuses an odd, out-of-range or non-numeric page count naming pages, and an unknown sku naming sku', async () => {
      for (const pages of ['25', '22', '122', '-2', 'lots']) {
        const response = await dimensions(`sku=PB-HC-A4-P&pages=${pages}`);
        expect(response.status, pages).toBe(400);
        expect(
          response.body.errors.map((e: { path: string }) => e.path),
          pages,
        ).toEqual(['pages']);
      }
      expect((await dimensions('sku=PB-HC-A4-P&pages=25')).body).toMatchObject({
        code: 'INVALID_PAGE_COUNT',
        errors: [{ path: 'pages', message: 'must be an even number of pages from 24 to 120 for PB-HC-A4-P' }],
      });
      const unknown = await dimensions('sku=NOPE&pages=24');
      expect(unknown.status).toBe(422);
      expect(unknown.body).toMatchObject({ code: 'UNKNOWN_SKU', errors: [{ path: 'sku' }] });
      const gql = await graphql(CoverDimensionsDocument, { sku: 'PB-HC-A4-P', pages: 23 }, owner);
      expect(gql.errors?.map((e) => e.extensions?.code)).toEqual(['INVALID_PAGE_COUNT']);
      expect((await dimensions('sku=PB-HC-A4-P&pages=24', {})).status).toBe(401);
    });
  });

  describe('preflight', () => {
    it('finds nothing to block in a built book, and warns of each spare page the layout left blank but the end page', async () => {
      const projectId = await editableProject(api, owner, {
        email: 'clean@example.com',
        photos: ['/a.jpg', '/b.jpg', '/c.jpg'].map((p) => photos.url(p)),
      });
      const response = await preflight(projectId);
      expect(response.status).toBe(200);
      // Three photos on pages 1-3 of 24: pages 4 to 23 print blank (the harness's products need no photo minimum).
      expect(response.body).toEqual({
        printable: true,
        problems: Array.from({ length: 20 }, (_, i) => ({
          code: 'BLANK_PAGE',
          severity: 'warning',
          page: i + 4,
          message: expect.stringContaining(`page ${i + 4} has no photo and no text`),
        })),
        usablePhotos: 3,
        failedPhotos: [],
      });
      const gql = await graphql(ProjectPreflightDocument, { id: projectId }, owner);
      expect(withoutNulls(gql.data!.project.preflight)).toEqual(response.body);
      // Another client's project is not found.
      expect((await preflight(projectId, other)).status).toBe(404);
    });

    it('blocks a book with a failed photo on a page: the same problems over REST and GraphQL, and /v2/print refuses it and writes nothing', async () => {
      const projectId = await editableProject(api, owner, {
        email: 'failed@example.com',
        photos: ['/a.jpg', '/b.jpg', '/c.jpg'].map((p) => photos.url(p)),
      });
      const orm = await api.orm();
      const em = orm.em.fork();
      const project = await em.findOneOrFail(Project, { id: projectId }, { populate: ['book'] });
      const placed = project.book!.pages.find((page) => page.photos.length > 0)!;
      // The stored original of a placed photo is gone and its download failed again.
      await em.nativeUpdate(
        Photo,
        { id: placed.photos[0].photoId },
        {
          status: 'failed',
          originalKey: null,
          problem: { code: 'HTTP_STATUS', message: 'the photo URL answered 404' },
        },
      );

      const rest = await preflight(projectId);
      expect(rest.status).toBe(200);
      expect(rest.body.printable).toBe(false);
      expect(rest.body.problems.filter((p: { severity: string }) => p.severity === 'blocking')).toEqual([
        {
          code: 'PHOTO_FAILED',
          severity: 'blocking',
          page: placed.number,
          slot: 0,
          message: expect.stringContaining('the photo URL answered 404 (HTTP_STATUS)'),
        },
      ]);
      expect(rest.body.failedPhotos).toEqual([
        {
          id: placed.photos[0].photoId,
          url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/[abc]\.jpg$/),
          problem: { code: 'HTTP_STATUS', message: 'the photo URL answered 404' },
        },
      ]);
      expect(rest.body.usablePhotos).toBe(2);
      const gql = await graphql(ProjectPreflightDocument, { id: projectId }, owner);
      expect(gql.errors).toBeUndefined();
      expect(withoutNulls(gql.data!.project.preflight)).toEqual(rest.body);

      const events = () => em.fork().count(StatusEvent, { subjectId: projectId });
      const eventsBefore = await events();
      const refused = await post(api.url, '/v2/print', printBody('np-1', projectId), owner);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        code: 'NOT_PRINTABLE',
        errors: [{ path: 'projects[0].id', message: expect.stringContaining('PHOTO_FAILED') }],
      });
      expect(refused.body.errors[0].message).toContain(`page ${placed.number}`);
      // GraphQL printOrder is refused alike.
      const viaGraphql = await graphql(PrintOrderDocument, { input: printBody('np-2', projectId) }, owner);
      expect(viaGraphql.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_PRINTABLE']);
      const fresh = orm.em.fork();
      expect(await fresh.count(Order, { orderId: { $in: ['np-1', 'np-2'] } })).toBe(0);
      expect(await fresh.count(OrderLine, { project: projectId })).toBe(0);
      expect(await fresh.findOneOrFail(Project, { id: projectId })).toMatchObject({
        status: 'editable',
        ordered: false,
      });
      expect(await events()).toBe(eventsBefore);
    });
  });

  it('prints a line as cover.pdf (the computed sheet, spine text inside the spine) and interior.pdf, both reachable by the owner only', async () => {
    const projectId = await editableProject(api, owner, {
      email: 'sheet@example.com',
      sku: 'PB-HC-15-S',
      custom: { title: 'Lisbon', spine: 'Lisbon 2024', backCover: 'A week of tiles and trams.' },
    });
    // 32 pages: thick enough for spine text (spineTextMinPages of the 15 x 15 hardcover).
    for (let i = 0; i < 4; i++) {
      const added = await post(
        api.url,
        '/graphql',
        {
          query: 'mutation($projectId: String!) { addPages(projectId: $projectId, after: 0) { id } }',
          variables: { projectId },
        },
        owner,
      );
      expect(added.body.errors).toBeUndefined();
    }
    // A book without photos: nothing blocks (this shop's products need none); its pages are warned blank.
    const checked = (await preflight(projectId)).body;
    expect(checked).toMatchObject({ printable: true, usablePhotos: 0, failedPhotos: [] });
    expect(new Set(checked.problems.map((p: { code: string }) => p.code))).toEqual(new Set(['BLANK_PAGE']));
    const sheet = (await dimensions('sku=PB-HC-15-S&pages=32')).body;
    expect(sheet.spineText).toBe(true);

    expect((await post(api.url, '/v2/print', printBody('sheet-1', projectId), owner)).status).toBe(200);
    const printFiles = (auth: Record<string, string>) =>
      request(api.url, 'GET', `/v2/order/print-files?orderId=sheet-1`, { headers: auth });
    await waitFor(
      async () => (await printFiles(owner)).body.lines?.[0]?.printFiles !== undefined,
      120_000,
      'print files',
    );
    const files = (await printFiles(owner)).body.lines[0].printFiles;
    expect(files.coverPdfUrl).toMatch(/\/cover\.pdf\?expires=/);
    expect(files.interiorPdfUrl).toMatch(/\/interior\.pdf\?expires=/);
    expect(files.pages).toBe(33);
    expect((await printFiles(other)).status).toBe(404);

    const download = async (url: string) => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      return new Uint8Array(await response.arrayBuffer());
    };
    const coverBytes = await download(files.coverPdfUrl);
    const interiorBytes = await download(files.interiorPdfUrl);
    // Both files are PDF/X-4 with the sandbox printer's output intent (sRGB): each requirement checked
    // is listed at expectPdfx4 (test/support/pdfx.ts); poppler recognises them as PDF/X-4.
    for (const bytes of [coverBytes, interiorBytes]) {
      const pdfx = await expectPdfx4(bytes, 3);
      expect(pdfx.info.Title).toBe('Lisbon');
      if (HAS_PDFINFO) expect(popplerReading(bytes).subtype).toBe('PDF/X-4');
    }

    const interior = await PDFDocument.load(interiorBytes);
    expect(interior.getPageCount()).toBe(32);
    for (const page of interior.getPages()) expect(page.getMediaBox().width).toBeCloseTo(156 * MM, 1);

    const cover = await PDFDocument.load(coverBytes);
    expect(cover.getPageCount()).toBe(1);
    const page = cover.getPage(0);
    const box = (name: string) =>
      page.node
        .lookup(PDFName.of(name), PDFArray)
        .asArray()
        .map((n) => (n as PDFNumber).asNumber());
    expect(box('MediaBox')[2]).toBeCloseTo(sheet.widthPt, 1);
    expect(box('MediaBox')[3]).toBeCloseTo(sheet.heightPt, 1);
    expect(box('BleedBox')).toEqual(box('MediaBox'));
    const trim = box('TrimBox');
    expect(trim[0]).toBeCloseTo(3 * MM, 2);
    expect(trim[2] - trim[0]).toBeCloseTo(sheet.trim.widthPt, 1);
    expect(trim[3] - trim[1]).toBeCloseTo(sheet.trim.heightPt, 1);
    // The same boxes as poppler reads them, as a printer's file check would.
    if (HAS_PDFINFO) {
      const read = pdfinfoBoxes(coverBytes);
      expect(read.pages).toBe(1);
      expect(read.boxes.MediaBox[2] - read.boxes.MediaBox[0]).toBeCloseTo(sheet.widthPt, 1);
      expect(read.boxes.MediaBox[3] - read.boxes.MediaBox[1]).toBeCloseTo(sheet.heightPt, 1);
      expect(read.boxes.BleedBox).toEqual(read.boxes.MediaBox);
      expect(read.boxes.TrimBox[0]).toBeCloseTo(3 * MM, 1);
      expect(read.boxes.TrimBox[2] - read.boxes.TrimBox[0]).toBeCloseTo(sheet.trim.widthPt, 1);
      expect(read.boxes.TrimBox[3] - read.boxes.TrimBox[1]).toBeCloseTo(sheet.trim.heightPt, 1);
      expect(pdfinfoBoxes(interiorBytes).pages).toBe(32);
    } else {
      console.warn(
        'pdfinfo is not installed (scripts/install-test-tools.sh): the page boxes were read with pdf-lib only',
      );
    }
    // Text is in the image, so the PDF needs no font.
    expect(page.node.Resources()!.lookup(PDFName.of('Font'))).toBeUndefined();

    // The sheet's image, at 300 DPI: white spine text inside the spine, none in the hinges or the wrap.
    const image = sheetImage(cover, page);
    const { width, height } = await sharp(image).metadata();
    expect(width).toBe(Math.round((sheet.widthMm / 25.4) * 300));
    expect(height).toBe(Math.round((sheet.heightMm / 25.4) * 300));
    const px = (mm: number) => Math.round((mm / 25.4) * 300);
    const region = (xMm: number, yMm: number, wMm: number, hMm: number) => ({
      left: px(xMm),
      top: px(yMm),
      width: px(xMm + wMm) - px(xMm),
      height: px(yMm + hMm) - px(yMm),
    });
    const spine = region(sheet.spine.xMm, sheet.spine.yMm, sheet.spine.widthMm, sheet.spine.heightMm);
    expect(await light(image, spine)).toBeGreaterThan(100);
    expect(
      await light(
        image,
        region(sheet.back.xMm + sheet.back.widthMm, sheet.spine.yMm, sheet.hingeMm, sheet.spine.heightMm),
      ),
    ).toBe(0);
    expect(
      await light(
        image,
        region(sheet.spine.xMm + sheet.spine.widthMm, sheet.spine.yMm, sheet.hingeMm, sheet.spine.heightMm),
      ),
    ).toBe(0);
    const wrap = sheet.bleedMm + sheet.wrapMm;
    for (const strip of [
      region(0, 0, sheet.widthMm, wrap),
      region(0, sheet.heightMm - wrap, sheet.widthMm, wrap),
      region(0, 0, wrap, sheet.heightMm),
      region(sheet.widthMm - wrap, 0, wrap, sheet.heightMm),
    ]) {
      expect(await light(image, strip)).toBe(0);
    }
    // The back-cover text in the back panel.
    expect(
      await light(image, region(sheet.back.xMm, sheet.back.yMm, sheet.back.widthMm, sheet.back.heightMm)),
    ).toBeGreaterThan(100);

    // The preview the dashboard shows is the printed sheet, shrunk.
    const preview = await fetch(files.coverPreviewUrl);
    expect(preview.headers.get('content-type')).toBe('image/jpeg');
    const previewSize = await sharp(Buffer.from(await preview.arrayBuffer())).metadata();
    expect(previewSize.width).toBe(1200);
    expect(previewSize.height! / previewSize.width!).toBeCloseTo(sheet.heightMm / sheet.widthMm, 2);

    // The manifest names both files with the sizes and checksums of what was downloaded.
    const manifest = (await (await fetch(files.manifestUrl)).json()) as { cover: unknown; interior: unknown };
    expect(manifest.cover).toMatchObject({
      file: 'cover.pdf',
      bytes: coverBytes.length,
      sha256: sha256(coverBytes),
      pageCount: 1,
      pdfx: 'PDF/X-4',
      outputProfile: { description: 'sRGB', colourSpace: 'RGB' },
      geometry: { widthMm: sheet.widthMm, spineWidthMm: sheet.spineWidthMm },
    });
    expect(manifest.interior).toMatchObject({
      file: 'interior.pdf',
      bytes: interiorBytes.length,
      sha256: sha256(interiorBytes),
      pageCount: 32,
      pdfx: 'PDF/X-4',
      outputProfile: { description: 'sRGB', colourSpace: 'RGB' },
    });
  }, 180_000);
});

/** The one JPEG placed on the page, as embedded (DCTDecode: the bytes are the JPEG file). */
function sheetImage(doc: PDFDocument, page: PDFPage): Buffer {
  const xObjects = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
  const stream = doc.context.lookup(xObjects.get(xObjects.keys()[0])) as PDFRawStream;
  return Buffer.from(stream.getContents());
}

async function light(
  image: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<number> {
  const { data, info } = await sharp(image).extract(region).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (data[i] > 200 && data[i + 1] > 200 && data[i + 2] > 200) count++;
  return count;
}
