import { once } from 'node:events';
import { CsvError, parse } from 'csv-parse';
import {
  CAMPAIGN_CUSTOM_PREFIX,
  CAMPAIGN_IDENTITY_COLUMNS,
  CAMPAIGN_PHOTO_SEPARATOR,
  CAMPAIGN_REQUIRED_COLUMNS,
} from '../../domain/campaign-status';

/** The file as a whole is unusable: not CSV text, or a required column is missing. */
export class CampaignFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CampaignFileError';
  }
}

/** One data row: where it starts in the file, and its values by column name. */
export interface CampaignCsvRecord {
  line: number;
  values: Record<string, string>;
}

export interface CampaignCsvReader {
  write(chunk: Buffer): Promise<void>;
  /** Resolves when every record was handed to `onRecord`; rejects with CampaignFileError for a bad file. */
  end(): Promise<void>;
}

/**
 * Parses a campaign CSV as it arrives, chunk by chunk, with csv-parse: UTF-8 with or without BOM,
 * CRLF or LF, quoted fields holding commas, quotes and line breaks. Each record is handed over with
 * the line its first character is on (the header is line 1), counted from the raw text because a
 * quoted field may span lines. Blank lines are skipped; a record waits for `onRecord`, so a slow
 * consumer slows the download instead of filling memory.
 */
export function createCampaignCsvReader(onRecord: (record: CampaignCsvRecord) => Promise<void>): CampaignCsvReader {
  const parser = parse({ bom: true, raw: true, relax_column_count: true });
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let header: string[] | undefined;
  let nextLine = 1;

  const consumed = (async () => {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      const line = nextLine;
      // csv-parse leaves the CR of a CRLF in `raw` and the LF out, but keeps a lone LF: a record
      // always ends one line past its last LF.
      nextLine += (raw.match(/\n/g)?.length ?? 0) + (raw.endsWith('\n') ? 0 : 1);
      if (record.every((value) => value.trim() === '')) continue;
      if (!header) {
        header = record.map((name) => name.trim());
        checkHeader(header);
        continue;
      }
      const values: Record<string, string> = {};
      header.forEach((name, i) => {
        if (name && record[i] !== undefined) values[name] = record[i];
      });
      await onRecord({ line, values });
    }
    if (!header)
      throw new CampaignFileError('the file is empty: a header row naming the columns is required on line 1');
  })().catch((error: unknown) => {
    if (error instanceof CsvError) throw new CampaignFileError(`not a readable CSV file: ${error.message}`);
    throw error;
  });
  // Surfaced by the next write(), which stops the download there, or by end().
  let refused: { error: unknown } | undefined;
  consumed.catch((error: unknown) => {
    refused = { error };
  });

  return {
    async write(chunk) {
      if (refused) throw refused.error;
      if (chunk.includes(0)) throw new CampaignFileError('not a CSV file: it holds binary data (NUL bytes), not text');
      try {
        utf8.decode(chunk, { stream: true });
      } catch {
        throw new CampaignFileError('not a CSV file: it is not UTF-8 text');
      }
      if (!parser.write(chunk)) await Promise.race([once(parser, 'drain'), consumed]);
    },
    async end() {
      parser.end();
      await consumed;
    },
  };
}

function checkHeader(header: string[]): void {
  const missing: string[] = CAMPAIGN_REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (!CAMPAIGN_IDENTITY_COLUMNS.some((column) => header.includes(column)))
    missing.push(CAMPAIGN_IDENTITY_COLUMNS.join(' or '));
  if (missing.length > 0) {
    throw new CampaignFileError(
      `missing required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: the header (line 1) must name reference, email or userId, sku, psp and marketId`,
    );
  }
}

/** What a row asks of generate, named as /v2/generate names its fields. */
export interface CampaignRowInput {
  email?: string;
  userId?: string;
  sku: string;
  psp: string;
  marketId: string;
  language?: string;
  layoutType?: string;
  photos?: string[];
  custom?: Record<string, string>;
}

/**
 * Reads one record: its reference and generate input, or the reason it is refused. Rules that
 * need the catalogue (sku, psp, market) or shape (email, language) are generate's, applied later.
 */
export function readCampaignRow(values: Record<string, string>): {
  reference: string | null;
  input: CampaignRowInput;
  problem: string | null;
} {
  const text = (name: string) => {
    const value = values[name]?.trim();
    return value ? value : undefined;
  };
  const reference = text('reference') ?? null;
  const input: CampaignRowInput = { sku: text('sku') ?? '', psp: text('psp') ?? '', marketId: text('marketId') ?? '' };
  const email = text('email');
  const userId = text('userId');
  if (email) input.email = email;
  if (userId) input.userId = userId;
  for (const name of ['language', 'layoutType'] as const) {
    const value = text(name);
    if (value) input[name] = value;
  }
  const photos = (values.photos ?? '')
    .split(CAMPAIGN_PHOTO_SEPARATOR)
    .map((url) => url.trim())
    .filter(Boolean);
  if (photos.length > 0) input.photos = photos;
  for (const [name, value] of Object.entries(values)) {
    if (name.startsWith(CAMPAIGN_CUSTOM_PREFIX) && name.length > CAMPAIGN_CUSTOM_PREFIX.length && value.trim() !== '') {
      (input.custom ??= {})[name.slice(CAMPAIGN_CUSTOM_PREFIX.length)] = value;
    }
  }

  const problems: string[] = [];
  if (!reference) problems.push('reference: is required');
  if (email && userId) problems.push('email, userId: give either email or userId, not both');
  if (!email && !userId)
    problems.push('email, userId: one of them is required (a campaign makes a project for a known end user)');
  for (const name of ['sku', 'psp', 'marketId'] as const) if (!input[name]) problems.push(`${name}: is required`);
  return { reference, input, problem: problems.length > 0 ? problems.join('; ') : null };
}
