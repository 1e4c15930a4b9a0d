import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderPrintFilesDocument } from '../../support/generated/graphql';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { waitFor } from '../../support/wait';
import { graphql as graphqlAt } from '../../support/graphql';

/** The print files of an order reach the client that owns it, at signed URLs that expire, and nobody else. */
describe('print files of an order line', () => {
  let api: TestService;
  let owner: Record<string, string>;
  let ownerLive: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ SANDBOX_PRINTER_STEP: '100ms', FILE_URL_TTL: '10m' });
    const shop = await api.createClient('Print files shop');
    owner = serviceHeader(shop.credentials.dev);
    ownerLive = serviceHeader(shop.credentials.prod);
    other = serviceHeader((await api.createClient('Someone else')).credentials.dev);
  });
  afterAll(() => api?.stop());

  const graphql = <R, V>(document: TypedDocumentNode<R, V>, variables: V, auth: Record<string, string>) =>
    graphqlAt(api.url, auth, document, variables);
  const printFiles = (orderId: string, auth: Record<string, string>, projectId?: string) =>
    request(api.url, 'GET', `/v2/order/print-files?orderId=${orderId}${projectId ? `&projectId=${projectId}` : ''}`, {
      headers: auth,
    });

  it('has none before the line is rendered (an order waiting for payment)', async () => {
    const projectId = await editableProject(api, owner, { email: 'wait@example.com' });
    expect(
      (await post(api.url, '/v2/print', { ...printBody('pf-waiting', projectId), paymentPending: true }, owner)).status,
    ).toBe(200);
    const rest = await printFiles('pf-waiting', owner);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ orderId: 'pf-waiting', lines: [{ projectId, status: 'waiting' }] });
    const gql = await graphql(OrderPrintFilesDocument, { orderId: 'pf-waiting' }, owner);
    expect(gql.data!.order.lines[0]!.printFiles).toBeNull();
  });

  it('gives the owner signed URLs of the rendered PDF and manifest (REST and GraphQL), refused to anyone else', async () => {
    const projectId = await editableProject(api, owner, { email: 'ada@example.com', custom: { title: 'Files' } });
    expect((await post(api.url, '/v2/print', printBody('pf-1', projectId), owner)).status).toBe(200);
    await waitFor(
      async () => (await printFiles('pf-1', owner)).body.lines?.[0]?.printFiles !== undefined,
      120_000,
      'print files',
    );

    const rest = await printFiles('pf-1', owner, projectId);
    expect(rest.status).toBe(200);
    const [line] = rest.body.lines;
    expect(line.projectId).toBe(projectId);
    const { coverPdfUrl, interiorPdfUrl, pdfUrl, manifestUrl, pages, expiresAt } = line.printFiles;
    expect(coverPdfUrl).toMatch(
      new RegExp(`^${api.config.publicUrl}/files/.+/cover\\.pdf\\?expires=\\d+&signature=[\\w-]+$`),
    );
    expect(interiorPdfUrl).toMatch(
      new RegExp(`^${api.config.publicUrl}/files/.+/interior\\.pdf\\?expires=\\d+&signature=[\\w-]+$`),
    );
    expect(pdfUrl).toBe(interiorPdfUrl); // the deprecated name of the interior
    // FILE_URL_TTL is 10 minutes here.
    expect(expiresAt * 1000 - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 1000);

    const pdfResponse = await fetch(interiorPdfUrl);
    expect(pdfResponse.status).toBe(200);
    expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
    const pdf = await PDFDocument.load(await pdfResponse.arrayBuffer());
    const coverPdf = await PDFDocument.load(await (await fetch(coverPdfUrl)).arrayBuffer());
    expect(pdf.getPageCount()).toBe(24); // the 24 pages of the A4 book
    expect(coverPdf.getPageCount()).toBe(1); // its cover sheet
    expect(pages).toBe(25);
    const manifest = await (await fetch(manifestUrl)).json();
    expect(manifest).toMatchObject({ orderId: 'pf-1', projectId });

    const gql = await graphql(OrderPrintFilesDocument, { orderId: 'pf-1' }, owner);
    expect(gql.errors).toBeUndefined();
    const files = gql.data!.order.lines[0]!.printFiles!;
    expect(files.pages).toBe(pages);
    const viaGraphql = await PDFDocument.load(await (await fetch(files.interiorPdfUrl)).arrayBuffer());
    expect(viaGraphql.getPageCount()).toBe(24);
    expect((await PDFDocument.load(await (await fetch(files.coverPdfUrl!)).arrayBuffer())).getPageCount()).toBe(1);

    // Another client finds no such order, in either transport.
    const refused = await printFiles('pf-1', other);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ code: 'NOT_FOUND', errors: [{ path: 'orderId' }] });
    const refusedGql = await graphql(OrderPrintFilesDocument, { orderId: 'pf-1' }, other);
    expect(refusedGql.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    // Nor does an unknown project of the owner's order, or a request without credentials.
    expect((await printFiles('pf-1', owner, 'p-unknown')).body).toMatchObject({
      code: 'NOT_FOUND',
      errors: [{ path: 'projectId' }],
    });
    expect((await printFiles('pf-1', {})).status).toBe(401);

    // The path alone, or with the signature of the PDF on the manifest, reads nothing.
    const plain = new URL(pdfUrl);
    const unsigned = await fetch(`${plain.origin}${plain.pathname}`);
    expect(unsigned.status).toBe(403);
    expect(((await unsigned.json()) as { code: string }).code).toBe('FILE_URL_UNSIGNED');
    const swapped = await fetch(`${new URL(manifestUrl).origin}${new URL(manifestUrl).pathname}${plain.search}`);
    expect(swapped.status).toBe(403);
    expect(((await swapped.json()) as { code: string }).code).toBe('FILE_URL_INVALID');
  }, 180_000);

  it('gives a live (prod) order its print files too, and keeps them from the same client in the sandbox', async () => {
    const projectId = await editableProject(api, ownerLive, { email: 'live@example.com' });
    expect((await post(api.url, '/v2/print', printBody('pf-live', projectId), ownerLive)).status).toBe(200);
    await waitFor(
      async () => (await printFiles('pf-live', ownerLive)).body.lines?.[0]?.printFiles !== undefined,
      120_000,
      'print files',
    );
    const { interiorPdfUrl, coverPdfUrl, pages } = (await printFiles('pf-live', ownerLive)).body.lines[0].printFiles;
    const interior = await PDFDocument.load(await (await fetch(interiorPdfUrl)).arrayBuffer());
    const cover = await PDFDocument.load(await (await fetch(coverPdfUrl)).arrayBuffer());
    expect(interior.getPageCount() + cover.getPageCount()).toBe(pages);
    expect((await printFiles('pf-live', owner)).status).toBe(404);
  }, 180_000);

  it('refuses a URL once it has expired', async () => {
    const rest = await printFiles('pf-1', owner);
    const key = decodeURIComponent(new URL(rest.body.lines[0].printFiles.pdfUrl).pathname.slice('/files/'.length));
    const shortLived = api.service.files.url(key, 1500);
    expect((await fetch(shortLived)).status).toBe(200);
    await waitFor(async () => (await fetch(shortLived)).status === 403, 10_000, 'expired');
    const expired = await fetch(shortLived);
    expect(await expired.json()).toMatchObject({
      status: 403,
      code: 'FILE_URL_EXPIRED',
      detail: expect.stringContaining('expired'),
    });
  });
});
