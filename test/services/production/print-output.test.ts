import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { editableProject, printBody } from '../../support/print-fixtures';
import { expectPdfx4, HAS_POPPLER, iccHeader, popplerReading } from '../../support/pdfx';
import { waitFor } from '../../support/wait';

/**
 * A printer that takes CMYK: the operator points PRINT_OUTPUT_PROFILE at the printer's CMYK profile.
 * The test profile is libvips's built-in CMYK profile ("Chemical proof", by Graeme W. Gill with
 * ArgyllCMS, public domain), written to a file. The sandbox printer of `dev` orders takes what the
 * live printer takes, so a test order's files are the ones the printer would get.
 */
describe('print output: a CMYK printer', () => {
  let dir: string;
  let profile: string;
  let api: TestService;
  let owner: Record<string, string>;
  let photos: PhotoServer;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'print-output-'));
    const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .withIccProfile('cmyk')
      .tiff()
      .toBuffer();
    profile = path.join(dir, 'chemical-proof.icc');
    await writeFile(profile, (await sharp(tagged).metadata()).icc!);
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '100ms',
      PRINT_OUTPUT_PROFILE: profile,
      PRINT_OUTPUT_CONDITION: 'Chemical proof',
    });
    owner = serviceHeader((await api.createClient('CMYK shop')).credentials.dev);
    // A phone photo in Display P3, and one without a profile.
    const p3 = await sharp(await makePhoto({ width: 2600, height: 3500, colour: '#c0392b', format: 'png' }))
      .withIccProfile('p3')
      .jpeg({ quality: 90 })
      .toBuffer();
    photos = await startPhotoServer({
      '/p3.jpg': { body: p3 },
      '/plain.jpg': { body: await makePhoto({ width: 2600, height: 3500, colour: '#27ae60' }) },
    });
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('gets cover.pdf and interior.pdf as PDF/X-4 with CMYK images tagged with its profile (ICC-based, N=4)', async () => {
    const projectId = await editableProject(api, owner, {
      email: 'cmyk@example.com',
      photos: ['/p3.jpg', '/plain.jpg'].map((p) => photos.url(p)),
      custom: { title: 'Porto' },
    });
    expect((await post(api.url, '/v2/print', printBody('cmyk-1', projectId), owner)).status).toBe(200);
    const printFiles = () => request(api.url, 'GET', '/v2/order/print-files?orderId=cmyk-1', { headers: owner });
    await waitFor(async () => (await printFiles()).body.lines?.[0]?.printFiles !== undefined, 150_000, 'print files');
    const files = (await printFiles()).body.lines[0].printFiles;
    for (const url of [files.coverPdfUrl, files.interiorPdfUrl]) {
      const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
      const pdf = await expectPdfx4(bytes, 4);
      expect(pdf.outputIntents[0].outputConditionIdentifier).toBe('Chemical proof');
      expect(iccHeader(pdf.outputIntents[0].profile!)).toMatchObject({ deviceClass: 'prtr', colourSpace: 'CMYK' });
      for (const page of pdf.pages) for (const image of page.images) expect(image.iccN).toBe(4);
      if (HAS_POPPLER) {
        const poppler = popplerReading(bytes);
        expect(poppler.subtype).toBe('PDF/X-4');
        expect(new Set(poppler.imageColours)).toEqual(new Set(['icc']));
      }
    }
    // The dashboard's cover preview is still an sRGB JPEG.
    const preview = await sharp(Buffer.from(await (await fetch(files.coverPreviewUrl)).arrayBuffer())).metadata();
    expect(preview.space).toBe('srgb');
  }, 240_000);

  it('refuses to start with a profile that is not one, or PDF/X-1a without a CMYK profile, naming the variable', async () => {
    const notAProfile = path.join(dir, 'notes.txt');
    await writeFile(notAProfile, 'not a profile');
    expect(() => loadConfig({ PRINT_OUTPUT_PROFILE: notAProfile })).toThrow(ConfigError);
    expect(() => loadConfig({ PRINT_OUTPUT_PROFILE: notAProfile })).toThrow(/PRINT_OUTPUT_PROFILE must be srgb or/);
    expect(() => loadConfig({ PRINT_OUTPUT_PROFILE: path.join(dir, 'missing.icc') })).toThrow(/PRINT_OUTPUT_PROFILE/);
    expect(() => loadConfig({ PRINT_PDFX: 'PDF/X-1a' })).toThrow(
      /PRINT_PDFX=PDF\/X-1a needs a CMYK PRINT_OUTPUT_PROFILE/,
    );
    expect(() => loadConfig({ PRINT_PDFX: 'PDF/X-3' })).toThrow(/PRINT_PDFX/);
    expect(loadConfig({ PRINT_OUTPUT_PROFILE: profile, PRINT_PDFX: 'PDF/X-1a' }).printOutput).toEqual({
      profile,
      pdfx: 'PDF/X-1a',
    });
    expect(loadConfig({}).printOutput).toEqual({ profile: 'srgb', pdfx: 'PDF/X-4' });
  });
});
