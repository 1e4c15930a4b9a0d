import type { Preflight } from '../../domain/preflight';
import type { PrintOutput } from '../../domain/print-output';
import type { FileStore } from '../../storage/file-store';
import type { RequestContext } from '../context';
import { coverDimensions, projectCoverSheet, type CoverDimensionsView } from './cover-dimensions';
import { preflightProject } from '../preflight/preflight';
import { BookRenderer } from './book-render';
import { createProof, readProof } from './project-proof';
import { ProofTurns } from './proof-turns';
import type { ProofView } from './proof-view';
import type { Logger } from 'pino';
import { PhotoFaces } from '../projects/photo-faces';
import { FaceFinding } from '../projects/face-finding';

export interface ProductionServiceDeps {
  files: FileStore;
  /** PROOF_TTL. */
  proofTtlMs: number;
  /** What the printers take files in (PRINT_OUTPUT_PROFILE): a proof is rendered for it, as the order would be. */
  printOutput: PrintOutput;
  log: Logger;
}

/** Print production as clients ask about it before an order: a product's cover sheet, a project's preflight and proof. */
export class ProductionService {
  /** Proofs render in this process's own print render process, started on the first proof. */
  private readonly renderer: BookRenderer;
  private readonly proofTurns = new ProofTurns();
  private readonly faces: PhotoFaces;

  constructor(private readonly deps: ProductionServiceDeps) {
    this.renderer = new BookRenderer(deps.files);
    this.faces = new PhotoFaces(deps.files, new FaceFinding(deps.log));
  }

  coverDimensions(ctx: RequestContext, sku: string, pages: number): Promise<CoverDimensionsView> {
    return coverDimensions(ctx, sku, pages);
  }

  coverSheet(ctx: RequestContext, projectId: string): Promise<CoverDimensionsView | null> {
    return projectCoverSheet(ctx, projectId);
  }

  preflight(ctx: RequestContext, projectId: unknown): Promise<Preflight> {
    return preflightProject(ctx, projectId);
  }

  proof(ctx: RequestContext, input: { id: unknown; colorCorrection?: boolean }): Promise<ProofView> {
    const { files, proofTtlMs, printOutput } = this.deps;
    return createProof(
      ctx,
      {
        files,
        renderer: this.renderer,
        ttlMs: proofTtlMs,
        output: printOutput,
        turns: this.proofTurns,
        faces: this.faces,
      },
      input,
    );
  }

  readProof(ctx: RequestContext, proofId: string): Promise<ProofView> {
    return readProof(ctx, this.deps.files, proofId);
  }
}
