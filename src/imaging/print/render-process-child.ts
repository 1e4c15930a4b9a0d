import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from '../../storage/write-file-atomically';
import { limitImageProcessing } from '../image-processing-limits';
import { PhotoCorrections } from './color-correction';
import type { RenderJob, RenderReply } from './render-job';
import { renderPrintPage } from './render-page';
import { renderPrintCoverSheet } from './cover-sheet';

/**
 * The print render process (render-process.ts starts it): renders the pages it is sent and
 * writes them where it is told. It leaves with its parent: a killed API process leaves no render
 * behind it.
 */
limitImageProcessing();
process.on('disconnect', () => process.exit(0));

/** The books rendered lately; at most two render at once (the renders queue). */
const corrections = new Map<string, PhotoCorrections>();

function correctionsOf(bookKey: string): PhotoCorrections {
  let book = corrections.get(bookKey);
  if (!book) {
    if (corrections.size >= 4) corrections.delete(corrections.keys().next().value!);
    corrections.set(bookKey, (book = new PhotoCorrections()));
  }
  return book;
}

async function render(job: RenderJob) {
  const loadPhoto = (photoId: string) => {
    const file = job.photoFiles[photoId];
    if (!file) throw new Error(`photo ${photoId} has no stored original`);
    return readFile(file);
  };
  const options = {
    format: job.format,
    loadPhoto,
    colorCorrection: job.colorCorrection,
    outputProfile: job.outputProfile,
    photoFaces: job.photoFaces,
    corrections: correctionsOf(job.bookKey),
  };
  const rendered = job.cover
    ? await renderPrintCoverSheet({ ...options, ...job.cover })
    : await renderPrintPage({ ...options, page: job.page! });
  await writeFileAtomically(job.outFile, rendered.jpeg);
  return rendered.placements;
}

process.on('message', (message: { id: number; job: RenderJob }) => {
  render(message.job).then(
    (placements) => process.send!({ id: message.id, placements } satisfies RenderReply),
    (error: unknown) =>
      process.send!({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies RenderReply),
  );
});
