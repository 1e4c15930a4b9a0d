import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrintRenderProcess, RENDER_NICE } from '../../../src/imaging/print/render-process';
import type { RenderJob } from '../../../src/imaging/print/render-job';
import { A4, sampleAt, solidJpeg } from './print-images';

describe('the print render process', () => {
  let dir: string;
  const renderer = new PrintRenderProcess();
  /** The render process now running (a private field: the test looks at the real process). */
  const childPid = () => (renderer as unknown as { child: { pid: number } }).child.pid;
  const job = (outName: string, photoId = 'red'): RenderJob => ({
    bookKey: 'book-1',
    format: A4,
    colorCorrection: true,
    outputProfile: 'srgb',
    photoFiles: { red: path.join(dir, 'red.jpg') },
    outFile: path.join(dir, outName),
    page: { number: 1, layout: 'full', photos: [{ photoId, x: 0.06, y: 0.06, width: 0.88, height: 0.88 }], texts: [] },
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'render-process-'));
    await writeFile(path.join(dir, 'red.jpg'), await solidJpeg(2000, 3000, '#ff0000'));
  });
  afterAll(async () => {
    renderer.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('renders a page in a process of its own, at a lower priority, and writes it where it is told', async () => {
    const placements = await renderer.render(job('page-1.jpg'));
    expect(placements).toEqual([expect.objectContaining({ photoId: 'red' })]);
    const meta = await sharp(path.join(dir, 'page-1.jpg')).metadata();
    expect(meta).toMatchObject({ width: 2551, height: 3579, density: 300 });
    const [r, g, b] = await sampleAt(await sharp(path.join(dir, 'page-1.jpg')).toBuffer(), 1275, 1789);
    expect([r > 230, g < 25, b < 25]).toEqual([true, true, true]); // the red photo, in its slot
    // No temporary file is left beside it.
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(childPid()).not.toBe(process.pid);
    expect(os.getPriority(childPid())).toBe(RENDER_NICE);
  });

  it('fails a page whose photo has no file with the reason, and goes on with the next', async () => {
    await expect(renderer.render(job('page-2.jpg', 'missing'))).rejects.toThrow(/photo missing has no stored original/);
    await expect(renderer.render(job('page-3.jpg'))).resolves.toHaveLength(1);
  });

  it('fails the pages under way when the process dies, and starts a new one for the next page', async () => {
    const first = childPid();
    const underWay = renderer.render(job('page-4.jpg'));
    process.kill(first, 'SIGKILL');
    await expect(underWay).rejects.toThrow(/print render process exited/);
    await expect(renderer.render(job('page-5.jpg'))).resolves.toHaveLength(1);
    expect(childPid()).not.toBe(first);
  });
});
