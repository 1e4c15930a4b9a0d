import type { PrintOutput } from '../../domain/print-output';
import { Project, Proof } from '../../db/entities';
import { DomainError, ConflictError, NotFoundError } from '../../domain/errors';
import type { FileStore } from '../../storage/file-store';
import { writeProofPreview } from '../../imaging/print/proof-preview';
import { coverSheetFormat } from '../../imaging/print/cover-geometry';
import { COVER_PDF_FILE, INTERIOR_PDF_FILE } from '../../imaging/print/manifest';
import type { RequestContext } from '../context';
import { assertProjectId } from '../projects/project-queries';
import { effectiveStatus } from '../projects/project-view';
import { bookRevision, photoOriginals } from '../projects/book-revision';
import type { PhotoFaces } from '../projects/photo-faces';
import { randomBase62 } from '../projects/project-ids';
import { preflightProject } from '../preflight/preflight';
import { type BookRenderer, geometryOfBook, interiorPageKeys, pageKey, type BookToRender } from './book-render';
import { PROOF_PREVIEW_FILE, proofFileKey, proofFolder, proofFolderOf } from './proof-files';
import type { ProofTurns } from './proof-turns';
import type { ProofView } from './proof-view';
import { proofExpired } from '../orders/proof-check';

const PROOF_ID_PREFIX = 'pr_';

/**
 * How long an expired proof's row is kept: an order naming it meanwhile is told it expired
 * (`PROOF_EXPIRED`); after that it is gone and the id is not found. Its files go at expiry.
 */
const EXPIRED_PROOF_KEPT_MS = 7 * 24 * 3600 * 1000;
/** Expired proofs cleared per proof made (the clearing is lazy, like quotes'). */
const PURGE_BATCH = 20;
/** Pages a proof renders at once (the render process takes them in parallel, at its lower priority). */
const RENDER_PARALLEL = 2;

export interface ProofDeps {
  files: FileStore;
  renderer: BookRenderer;
  /** PROOF_TTL: how long a proof holds an order to its files. */
  ttlMs: number;
  /** What the printers take files in: the proof is rendered for it, as the order would be. */
  output: PrintOutput;
  /** Whose proof renders now: one per client at a time, a few per process. */
  turns: ProofTurns;
  /** The faces the automatic crops keep in the safe area (those of photos analysed before faces were looked for found first). */
  faces: PhotoFaces;
}

/**
 * `POST /v2/project/proof` and GraphQL `proofProject`: renders the project's book now, with the
 * production code an order's fulfilment uses, and keeps the print files until `expiresAt`. The
 * answer names each file with its SHA-256, which is the SHA-256 of what the printer receives for an
 * order that names the proof (`projects[].proofId`), and a signed URL of a watermarked
 * low-resolution preview to show the customer. A book that is not built, or that the preflight
 * blocks, is refused as `/v2/print` would refuse it.
 */
export async function createProof(
  ctx: RequestContext,
  deps: ProofDeps,
  input: { id: unknown; colorCorrection?: boolean },
  now = new Date(),
): Promise<ProofView> {
  assertProjectId(input.id, 'id');
  const id = input.id;
  const project = await ctx.em.findOne(Project, { id, status: { $ne: 'deleted' } }, { populate: ['product', 'book'] });
  if (!project) throw new NotFoundError('project', id, 'id');
  if (effectiveStatus(project) === 'expired')
    throw new ConflictError('PROJECT_EXPIRED', `id: project ${id} has expired and cannot be proofed`);
  const book = project.book;
  if (!book || project.status === 'created' || project.status === 'building' || project.status === 'failed') {
    const message = `the book is not laid out yet (${project.status}); make the proof once it is editable`;
    throw new DomainError('conflict', 'PROJECT_BUILDING', `id: ${message}`, [{ path: 'id', message }]);
  }
  const preflight = await preflightProject(ctx, id);
  const blocking = preflight.problems.filter((p) => p.severity === 'blocking');
  if (blocking.length > 0) {
    const errors = blocking.map((p) => ({ path: 'id', message: `${p.message} (${p.code})` }));
    throw new DomainError(
      'rejected',
      'NOT_PRINTABLE',
      `not printable as it is: ${errors.map((e) => e.message).join('; ')}`,
      errors,
    );
  }
  const tenant = `${ctx.tenant.clientId}/${ctx.tenant.env}`;
  return deps.turns.run(tenant, () => renderProof(ctx, deps, project, book, input.colorCorrection === true, now));
}

/** The proof's render, its files and its row, once it is this client's turn. */
async function renderProof(
  ctx: RequestContext,
  deps: ProofDeps,
  project: Project,
  book: NonNullable<Project['book']>,
  colorCorrection: boolean,
  now: Date,
): Promise<ProofView> {
  const { files, renderer } = deps;
  await purgeExpiredProofs(ctx, files, now);

  const originals = await photoOriginals(ctx.em, project);
  const revision = bookRevision(book, project.product, originals, deps.output);
  const proofId = `${PROOF_ID_PREFIX}${randomBase62(24)}`;
  const target: BookToRender = {
    prefix: proofFolder({
      proofId,
      clientId: ctx.tenant.clientId,
      env: ctx.tenant.env,
      storageKey: project.storageKey,
    }),
    bookKey: proofId,
    book,
    product: project.product,
    colorCorrection,
    originals,
    faces: await deps.faces.ofProject(ctx.em, project),
    output: deps.output,
  };
  let proof: Proof;
  try {
    const warnings = await renderAllPages(renderer, target);
    const { coverPdf, interiorPdf } = await renderer.assemble(target);
    const format = project.product.specifications.format;
    const coverFormat = coverSheetFormat(geometryOfBook(project.product, book), format.dpi);
    async function* previewPages() {
      yield { jpeg: await files.get(pageKey(target.prefix, 0)), format: coverFormat };
      for (const key of interiorPageKeys(target.prefix, book!)) yield { jpeg: await files.get(key), format };
    }
    await files.put(
      `${target.prefix}/${PROOF_PREVIEW_FILE}`,
      await writeProofPreview({ pages: previewPages(), title: book.cover.title }),
    );
    // The page images were for the PDFs; an order using the proof copies the PDFs, never renders.
    await files.removeTree(`${target.prefix}/pages`);
    proof = ctx.em.create(Proof, {
      id: proofId,
      client: ctx.tenant.clientId,
      env: ctx.tenant.env,
      project,
      revision,
      sku: project.sku,
      psp: project.psp,
      colorCorrection,
      files: [
        { name: COVER_PDF_FILE, sha256: coverPdf.sha256, bytes: coverPdf.bytes, pages: coverPdf.pageCount },
        {
          name: INTERIOR_PDF_FILE,
          sha256: interiorPdf.sha256,
          bytes: interiorPdf.bytes,
          pages: interiorPdf.pageCount,
        },
      ],
      coverPdf,
      interiorPdf,
      warnings,
      expiresAt: new Date(now.getTime() + deps.ttlMs),
      createdAt: now,
    });
    await ctx.em.flush();
  } catch (error) {
    await files.removeTree(target.prefix).catch(() => undefined);
    throw error;
  }
  return proofView(proof, files, now);
}

/** `GET /v2/project/proof?proofId=` and GraphQL `proof(id)`: a proof of the caller's, with a fresh preview URL. */
export async function readProof(
  ctx: RequestContext,
  files: FileStore,
  proofId: string,
  now = new Date(),
): Promise<ProofView> {
  const proof = await ctx.em.findOne(Proof, { id: proofId }, { populate: ['project'] });
  if (!proof || proof.project.status === 'deleted') throw new NotFoundError('proof', proofId, 'proofId');
  if (proof.expiresAt.getTime() <= now.getTime()) throw proofExpired(proof, 'proofId');
  return proofView(proof, files, now);
}

function proofView(proof: Proof, files: FileStore, now: Date): ProofView {
  const preview = files.signedUrl(proofFileKey(proof, PROOF_PREVIEW_FILE), proof.expiresAt.getTime() - now.getTime());
  return {
    proofId: proof.id,
    files: proof.files,
    previewUrl: preview.url,
    expiresAt: Math.floor(proof.expiresAt.getTime() / 1000),
  };
}

/** Every page of the book, the cover sheet (0) first, RENDER_PARALLEL at a time; the photos that will print soft. */
async function renderAllPages(renderer: BookRenderer, target: BookToRender) {
  const last = target.book.pages.length;
  let next = 0;
  const warnings: Awaited<ReturnType<BookRenderer['renderPages']>>['warnings'] = [];
  const worker = async () => {
    while (next <= last) {
      const page = next++;
      warnings.push(...(await renderer.renderPages(target, page, page)).warnings);
    }
  };
  await Promise.all(Array.from({ length: RENDER_PARALLEL }, worker));
  const order = (page: number | 'cover') => (page === 'cover' ? 0 : page);
  return warnings.sort((a, b) => order(a.page) - order(b.page) || a.photoId.localeCompare(b.photoId));
}

/**
 * Lazily, as quotes are: the caller's proofs that expired unused lose their files, and their rows
 * go EXPIRED_PROOF_KEPT_MS later. A proof an order holds keeps its files until the order's
 * fulfilment has copied them (BookProduction.assemblePrintFiles).
 */
async function purgeExpiredProofs(ctx: RequestContext, files: FileStore, now: Date): Promise<void> {
  const expired = await ctx.em.find(
    Proof,
    { expiresAt: { $lt: now }, orderLine: null },
    { populate: ['project'], orderBy: { expiresAt: 'asc' }, limit: PURGE_BATCH },
  );
  for (const proof of expired) {
    await files.removeTree(proofFolderOf(proof));
    if (proof.expiresAt.getTime() < now.getTime() - EXPIRED_PROOF_KEPT_MS) ctx.em.remove(proof);
  }
  await ctx.em.flush();
}
