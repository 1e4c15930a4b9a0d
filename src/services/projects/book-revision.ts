import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Photo, type Product, type Project } from '../../db/entities';
import type { Book } from '../../domain/book';
import { canonicalJson } from '../../domain/canonical-json';
import type { PrintOutput } from '../../domain/print-output';

/**
 * What a book's print files are rendered from, as one SHA-256 (hex): the layout (pages, slots,
 * crops, texts, cover), the product's print geometry (format and binding), the stored original
 * of each photo the book places, and the printer's output (profile and PDF/X flavour). Two equal revisions render to the same bytes (rendering is
 * deterministic); any edit, a catalogue change of the product's geometry or a photo replaced
 * gives another. A proof records it; an order holding to the proof compares it (PROOF_STALE).
 */
export function bookRevision(
  book: Book,
  product: Pick<Product, 'specifications'>,
  originals: Map<string, string>,
  output: PrintOutput,
): string {
  const placed = new Set<string>();
  if (book.cover.photoId) placed.add(book.cover.photoId);
  for (const page of book.pages) for (const slot of page.photos) placed.add(slot.photoId);
  const photos = [...placed].sort().map((id) => [id, originals.get(id) ?? null]);
  const { format, production } = product.specifications;
  return createHash('sha256')
    .update(canonicalJson({ book, format, production, photos, output: { profile: output.profile, pdfx: output.pdfx } }))
    .digest('hex');
}

/** The stored originals of a project's photos, by photo id. */
export async function photoOriginals(em: EntityManager, project: Project): Promise<Map<string, string>> {
  const originals = new Map<string, string>();
  for (const photo of await em.find(Photo, { project }, { fields: ['id', 'originalKey'] }))
    if (photo.originalKey) originals.set(photo.id, photo.originalKey);
  return originals;
}
