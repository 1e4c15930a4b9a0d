import { describe, expect, it } from 'vitest';
import {
  createCampaignCsvReader,
  readCampaignRow,
  type CampaignCsvRecord,
} from '../../../src/services/campaigns/campaign-csv';

/** Feeds `text` in chunks of `size` bytes (splitting CRLFs, quotes and multi-byte characters). */
async function read(text: string | Buffer, size: number): Promise<CampaignCsvRecord[]> {
  const records: CampaignCsvRecord[] = [];
  const reader = createCampaignCsvReader(async (record) => {
    records.push(record);
  });
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) await reader.write(bytes.subarray(i, i + size));
  await reader.end();
  return records;
}

const FILE = [
  '\uFEFFreference,email,sku,psp,marketId,custom.title,extra',
  'a,a@example.com,S,local,0,"Grüße, ""quoted""",x', // 2
  '',
  '"b",b@example.com,S,local,0,"three', // 4-6
  'line',
  'title",',
  'c,c@example.com,S,local,0', // 7: short row
].join('\r\n');

describe('campaign CSV reader', () => {
  for (const size of [1, 2, 3, 7, 1024]) {
    it(`reads the same records with their first lines whatever the chunking (${size}-byte chunks)`, async () => {
      const records = await read(FILE, size);
      expect(records.map((r) => [r.line, r.values.reference])).toEqual([
        [2, 'a'],
        [4, 'b'],
        [7, 'c'],
      ]);
      expect(records[0].values['custom.title']).toBe('Grüße, "quoted"');
      expect(records[1].values['custom.title']).toBe('three\r\nline\r\ntitle');
      expect(readCampaignRow(records[0].values).input.custom).toEqual({ title: 'Grüße, "quoted"' });
      expect(records[2].values.extra).toBeUndefined();
    });
  }

  it('counts LF files the same way', async () => {
    const records = await read(FILE.replaceAll('\r\n', '\n').replace('\uFEFF', ''), 5);
    expect(records.map((r) => r.line)).toEqual([2, 4, 7]);
  });

  it('refuses binary data, text that is not UTF-8, an empty file and a missing column, with the reason', async () => {
    await expect(read(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]), 4)).rejects.toThrow(
      /^not a CSV file/,
    );
    await expect(read(Buffer.from('reference,email\nabc\u0000def', 'utf8'), 64)).rejects.toThrow(/binary data/);
    await expect(
      read(Buffer.concat([Buffer.from('reference,email\n'), Buffer.from([0xc3, 0x28])]), 64),
    ).rejects.toThrow(/not UTF-8/);
    await expect(read('', 8)).rejects.toThrow(/the file is empty/);
    await expect(read('\r\n\r\n', 8)).rejects.toThrow(/the file is empty/);
    await expect(read('reference,email,sku,marketId\nr,a@example.com,S,0\n', 8)).rejects.toThrow(
      /^missing required column psp/,
    );
    await expect(read('reference,sku,psp,marketId\nr,S,local,0\n', 8)).rejects.toThrow(
      /missing required column email or userId/,
    );
    await expect(read('reference,email,sku,psp,marketId\n"r,a@example.com,S,local,0\n', 8)).rejects.toThrow(
      /not a readable CSV file/,
    );
  });

  it('reads a row: photos split on |, custom columns, and the reasons a row is refused', () => {
    expect(
      readCampaignRow({
        reference: 'r',
        userId: 'u',
        sku: 'S',
        psp: 'p',
        marketId: '0',
        photos: ' https://a/1.jpg | https://a/2.jpg ||',
      }),
    ).toEqual({
      reference: 'r',
      input: { userId: 'u', sku: 'S', psp: 'p', marketId: '0', photos: ['https://a/1.jpg', 'https://a/2.jpg'] },
      problem: null,
    });
    expect(
      readCampaignRow({ reference: ' ', email: 'a@b.c', userId: 'u', sku: '', psp: 'p', marketId: '0' }).problem,
    ).toBe('reference: is required; email, userId: give either email or userId, not both; sku: is required');
  });
});
