import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileStore } from '../storage/file-store';
import { DEFAULT_PRINT_OUTPUT, type PrintOutput } from '../domain/print-output';
import { replaceFileAtomically, temporaryNameBeside } from '../storage/write-file-atomically';
import {
  derivedJobId,
  PrinterRefusedCancel,
  type Printer,
  type PrintJob,
  type PrintJobRef,
  type PrintSubmission,
} from './printer';

export interface LocalPrinterOptions {
  /** DATA_DIR: jobs go to `<dataDir>/printjobs/<orderId>/<projectId>/`. */
  dataDir: string;
  files: FileStore;
  /** The files the print shop's software takes (PRINT_OUTPUT_PROFILE, PRINT_PDFX); sRGB PDF/X-4 by default. */
  output?: PrintOutput;
}

/** What job.json holds: the job as submitted, its id and when. */
interface LocalJobRecord extends PrintJob {
  jobId: string;
  submittedAt: string;
}

/**
 * The default printer (PRINTER=local): a folder a print shop's software picks jobs up from.
 * Each job is `DATA_DIR/printjobs/<orderId>/<projectId>/` with `cover.pdf`, `interior.pdf`, `manifest.json` and
 * `job.json`. Every file is written to a temp name and renamed, and job.json comes last and is
 * created only if absent: once it exists the job is submitted, and any later submit of the same
 * job returns the recorded jobId without touching the folder.
 */
export class LocalPrinter implements Printer {
  readonly kind = 'local' as const;
  readonly output: PrintOutput;

  constructor(private readonly options: LocalPrinterOptions) {
    this.output = options.output ?? DEFAULT_PRINT_OUTPUT;
  }

  /** The folder of a job. */
  jobDir(job: Pick<PrintJob, 'orderId' | 'projectId'>): string {
    return path.join(this.options.dataDir, 'printjobs', pathSegment(job.orderId), pathSegment(job.projectId));
  }

  async submit(job: PrintJob): Promise<PrintSubmission> {
    const dir = this.jobDir(job);
    const jobFile = path.join(dir, 'job.json');
    const recorded = await readRecord(jobFile, job);
    if (recorded) return { jobId: recorded.jobId };

    await mkdir(dir, { recursive: true });
    const { files } = this.options;
    const sources = { 'cover.pdf': job.coverPdfKey, 'interior.pdf': job.pdfKey, 'manifest.json': job.manifestKey };
    for (const [field, key] of [
      ['coverPdfKey', job.coverPdfKey],
      ['pdfKey', job.pdfKey],
      ['manifestKey', job.manifestKey],
    ]) {
      if (!files.isValidKey(key)) throw new Error(`print job ${field} ${JSON.stringify(key)} is not a storage key`);
      // Every file is there before any is copied: a job with a file missing leaves its folder empty for the retry.
      if (!(await files.exists(key)))
        throw new Error(`print job ${field} ${JSON.stringify(key)}: no such file in the store`);
    }
    // Streamed from the store (wherever it is) into the job's folder.
    for (const [name, key] of Object.entries(sources)) {
      await replaceFileAtomically(path.join(dir, name), async (temporary) =>
        pipeline(await files.read(key), createWriteStream(temporary, { flags: 'wx' })),
      );
    }

    const record: LocalJobRecord = {
      ...job,
      jobId: derivedJobId('local', job.jobKey),
      submittedAt: new Date().toISOString(),
    };
    const temp = temporaryNameBeside(jobFile);
    await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`);
    try {
      // link() refuses an existing target, so of two concurrent submits exactly one records the job.
      await link(temp, jobFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const winner = await readRecord(jobFile, job);
      if (winner) return { jobId: winner.jobId };
      throw error;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    return { jobId: record.jobId };
  }

  /**
   * Writes `cancel.json` beside the job: the print shop's software skips a cancelled job. A job
   * whose folder holds `started.json` (written by that software when production starts) is refused.
   */
  async cancel(job: PrintJobRef): Promise<void> {
    const dir = this.jobDir(job);
    const started = await readFile(path.join(dir, 'started.json'), 'utf8').then(
      () => true,
      () => false,
    );
    if (started) throw new PrinterRefusedCancel(`the print shop has started producing job ${job.jobId} (started.json)`);
    const record: LocalCancelRecord = { jobId: job.jobId, cancelledAt: new Date().toISOString() };
    await mkdir(dir, { recursive: true });
    await replaceFileAtomically(path.join(dir, 'cancel.json'), (temporary) =>
      writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`),
    );
  }
}

/** What cancel.json holds. */
interface LocalCancelRecord {
  jobId: string;
  cancelledAt: string;
}

/** The recorded job, or null when none is recorded yet; another job in the same folder is refused. */
async function readRecord(jobFile: string, job: PrintJob): Promise<LocalJobRecord | null> {
  let text: string;
  try {
    text = await readFile(jobFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const record = JSON.parse(text) as LocalJobRecord;
  if (record.jobKey !== job.jobKey) {
    throw new Error(`${jobFile} already holds job ${JSON.stringify(record.jobKey)}, not ${JSON.stringify(job.jobKey)}`);
  }
  return record;
}

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * Order ids come from clients and may hold any character: a safe id is used as it is, any other
 * becomes its safe characters plus a hash of the whole id, so two ids never share a folder and
 * none can leave `printjobs/`.
 */
function pathSegment(value: string): string {
  if (SAFE_SEGMENT.test(value)) return value;
  const readable = value
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 60);
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 16);
  return readable ? `${readable}~${hash}` : `~${hash}`;
}
