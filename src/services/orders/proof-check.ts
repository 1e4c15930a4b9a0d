import type { EntityManager } from '@mikro-orm/postgresql';
import { Proof, type Product, type Project } from '../../db/entities';
import { DomainError, NotFoundError, ValidationError } from '../../domain/errors';
import { bookRevision, photoOriginals } from '../projects/book-revision';
import type { PrintOutput } from '../../domain/print-output';

/** An order line as it would print, in the terms a proof was rendered in. */
export interface LineAgainstProof {
  /** `projects[i]`: the line's fields are named under it. */
  at: string;
  project: Project;
  product: Product;
  colorCorrection: boolean;
  /** What the line's printer takes its files in: a proof rendered for another output is stale. */
  output: PrintOutput;
  /** The order replaces the project's photos: the book is rebuilt, so no proof can hold it. */
  rebuilt: boolean;
}

/**
 * Holds an order line to the proof it names (`projects[i].proofId`): an unknown proof (or
 * another tenant's) is a 404; a proof of another project or with photos sent along a 400; an
 * expired one a 409 `PROOF_EXPIRED`; one another order already prints a 409 `PROOF_USED`; and a
 * line whose book, product or colour correction is no longer what the proof rendered a 409
 * `PROOF_STALE`. Each names `projects[i].proofId`. Reads only; the order's transaction checks the
 * book again under its lock (`assertProofCurrent`) and claims the proof.
 */
export async function checkProof(
  em: EntityManager,
  proofId: string,
  line: LineAgainstProof,
  now = new Date(),
): Promise<Proof> {
  const path = `${line.at}.proofId`;
  if (line.rebuilt)
    throw ValidationError.field(path, 'holds the order to the book as proofed; it cannot be sent with photos');
  const proof = await em.findOne(Proof, { id: proofId });
  if (!proof) throw new NotFoundError('proof', proofId, path);
  if (proof.project.id !== line.project.id)
    throw ValidationError.field(path, `is a proof of another project, not of ${line.project.id}`);
  if (proof.expiresAt.getTime() <= now.getTime()) throw proofExpired(proof, path);
  if (proof.orderLine) throw proofUsed(proof, path);
  if (proof.sku !== line.product.sku || proof.psp !== line.product.specifications.psp.name)
    throw stale(path, `the proof is of ${proof.sku} (${proof.psp}); the order prints ${line.product.sku}`);
  if (proof.colorCorrection !== line.colorCorrection)
    throw stale(
      path,
      `the proof was rendered ${proof.colorCorrection ? 'with' : 'without'} colour correction; ${line.at}.metadata.colorCorrection asks ${line.colorCorrection ? 'for it' : 'for none'}`,
    );
  await assertProofCurrent(em, proof, line);
  return proof;
}

/** The book the order holds (the locked one, in the order's transaction) is the book the proof rendered; PROOF_STALE otherwise. */
export async function assertProofCurrent(
  em: EntityManager,
  proof: Proof,
  line: Pick<LineAgainstProof, 'at' | 'project' | 'product' | 'output'>,
): Promise<void> {
  await em.populate(line.project, ['book']);
  const book = line.project.book;
  const revision = book ? bookRevision(book, line.product, await photoOriginals(em, line.project), line.output) : null;
  if (revision !== proof.revision)
    throw stale(
      `${line.at}.proofId`,
      `the book of ${line.project.id} changed since proof ${proof.id} was made; make a new proof and show it again`,
    );
}

/** 409 PROOF_EXPIRED naming the field that carried the proof's id. */
export function proofExpired(proof: Proof, path: string): DomainError {
  const message = `proof ${proof.id} expired at ${proof.expiresAt.toISOString()}; make a new proof`;
  return new DomainError('conflict', 'PROOF_EXPIRED', `${path}: ${message}`, [{ path, message }]);
}

/** The proof's own rows and files are claimed by the line: another order finds it used (PROOF_USED). */
export async function claimProof(em: EntityManager, proof: Proof, lineId: string, at: string): Promise<void> {
  const claimed = await em.nativeUpdate(Proof, { id: proof.id, orderLine: null }, { orderLine: lineId });
  if (claimed === 0) throw proofUsed(proof, `${at}.proofId`);
}

function proofUsed(proof: Proof, path: string): DomainError {
  const message = `proof ${proof.id} is printed by another order already; make a new proof for another order`;
  return new DomainError('conflict', 'PROOF_USED', `${path}: ${message}`, [{ path, message }]);
}

function stale(path: string, message: string): DomainError {
  return new DomainError('conflict', 'PROOF_STALE', `${path}: ${message}`, [{ path, message }]);
}
