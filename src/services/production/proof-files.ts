import type { Proof } from '../../db/entities';
import { projectPrefix } from '../projects/storage-keys';

/** The watermarked, low-resolution PDF a shop shows its customer. */
export const PROOF_PREVIEW_FILE = 'preview.pdf';

/**
 * A proof's files live in its project's folder (`…/projects/<storage key>/proofs/<proof id>/`), so
 * the project's expunge takes them with it, and their URLs name no project id.
 */
export function proofFolder(where: { proofId: string; clientId: string; env: string; storageKey: string }): string {
  return `${projectPrefix(where.clientId, where.env, where.storageKey)}/proofs/${where.proofId}`;
}

/** One of a stored proof's files (its project loaded). */
export function proofFileKey(proof: Proof, name: string): string {
  return `${proofFolderOf(proof)}/${name}`;
}

export function proofFolderOf(proof: Proof): string {
  return proofFolder({
    proofId: proof.id,
    clientId: proof.client.id,
    env: proof.env,
    storageKey: proof.project.storageKey,
  });
}
