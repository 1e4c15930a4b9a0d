/**
 * The floor of a campaign: the least a bare script does for the same rows. It streams the same CSV
 * into rows (csv-parse, batched inserts), then works 4 rows at a time (the most builds of one
 * tenant the service runs at once), each row straight through with plain node-postgres and the same
 * image work: the reference claimed, the project generated (product and market lookups, then end
 * user, project, photo, the subject's lock, the status event with its NOTIFY and a flow-start row
 * in one transaction), building (with its event), the photo streamed to a file, analysed and
 * thumbnailed and its faces found (the service's own imaging functions and detector), the book laid out (its own layout function),
 * the cover preview rendered, editable (with its event), and a signed webhook POSTed to the receiver
 * and recorded. It has no workflow engine (no step records, no recovery, no pages, no polling),
 * no ORM, no outbox, no retries, no rate limit, no logging: a floor, not a product.
 *
 * Runs against a database the service migrated, as the client the service's campaign used, in
 * tables of its own for the rows and deliveries (copies of campaign_rows and webhook_deliveries).
 * Started by campaign.ts with FLOOR_* variables; prints `floor rows per second`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { analyzePhoto } from '../../src/imaging/photo-analysis';
import { makeThumbnail } from '../../src/imaging/thumbnail';
import { detectFaces } from '../../src/imaging/faces/face-detector';
import { renderCoverPreview } from '../../src/imaging/cover-preview';
import { limitImageProcessing } from '../../src/imaging/image-processing-limits';
import { buildBook } from '../../src/services/projects/book-builder';

const need = (name: string) =>
  process.env[name] ??
  (() => {
    throw new Error(`set ${name}`);
  })();
const csvUrl = need('FLOOR_CSV_URL');
const hookUrl = need('FLOOR_HOOK_URL');
const hook = new Webhook(need('FLOOR_HOOK_SECRET'));
const tenant = { clientId: need('FLOOR_CLIENT_ID'), env: need('FLOOR_ENV') };
const dataDir = need('FLOOR_DATA_DIR');
/** Rows at work at once: the most builds of one tenant the service runs at once (its build queue's per-tenant limit). */
const IN_FLIGHT = 4;
const BATCH = 500;
const PREVIEW_LONG_SIDE = 800;
const TTL_MS = 30 * 24 * 3600 * 1000;

limitImageProcessing();
const pool = new pg.Pool({ connectionString: need('DATABASE_URL'), max: 10 });
await pool.query(
  'CREATE TABLE IF NOT EXISTS bench_floor_campaign_rows (LIKE campaign_rows INCLUDING DEFAULTS INCLUDING INDEXES)',
);
await pool.query(
  'CREATE TABLE IF NOT EXISTS bench_floor_deliveries (LIKE webhook_deliveries INCLUDING DEFAULTS INCLUDING INDEXES)',
);
await pool.query(`CREATE TABLE IF NOT EXISTS bench_floor_flows (
  workflow_id text PRIMARY KEY, name text NOT NULL, input jsonb NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
const campaignId = `cmp_floor_${randomBytes(6).toString('hex')}`;

async function inTransaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    const result = await work(db);
    await db.query('COMMIT');
    return result;
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  } finally {
    db.release();
  }
}

/** The project's status event and its NOTIFY, after the subject's lock, as the service writes them. */
async function statusEvent(db: pg.PoolClient, projectId: string, status: string, detail: object): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`project:${projectId}`]);
  await db.query(
    `WITH event AS (
       INSERT INTO status_events (client_id, env, subject_type, subject_id, status, sequence, detail)
       SELECT $1::uuid, $2::environment, 'project', $3::varchar, $4, COALESCE(MAX(sequence), 0) + 1, $5::jsonb
         FROM status_events WHERE subject_type = 'project' AND subject_id = $3
       RETURNING id)
     SELECT id, pg_notify('status_events', id::text) FROM event`,
    [tenant.clientId, tenant.env, projectId, status, JSON.stringify(detail)],
  );
}

interface RowInput {
  reference: string;
  email: string;
  sku: string;
  psp: string;
  marketId: number;
  language: string;
  photos: string[];
  custom: Record<string, string>;
}

/** The CSV streamed into rows, BATCH at a time; answers the rows' ids in line order. */
async function importRows(): Promise<string[]> {
  const response = await fetch(csvUrl);
  const parser = Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream).pipe(
    parse({ columns: true, bom: true }),
  );
  const ids: string[] = [];
  let batch: { line: number; input: RowInput }[] = [];
  const flush = async () => {
    const { rows } = await pool.query(
      `INSERT INTO bench_floor_campaign_rows (campaign_id, client_id, env, line, reference, input, updated_at)
       SELECT $1, $2, $3, line, input->>'reference', input, now() FROM unnest($4::int[], $5::jsonb[]) AS r(line, input)
       RETURNING id`,
      [campaignId, tenant.clientId, tenant.env, batch.map((r) => r.line), batch.map((r) => JSON.stringify(r.input))],
    );
    ids.push(...rows.map((r: { id: string }) => r.id));
    batch = [];
  };
  let line = 1;
  for await (const values of parser as AsyncIterable<Record<string, string>>) {
    const custom = Object.fromEntries(
      Object.entries(values)
        .filter(([k]) => k.startsWith('custom.'))
        .map(([k, v]) => [k.slice(7), v]),
    );
    batch.push({
      line: ++line,
      input: {
        reference: values.reference,
        email: values.email,
        sku: values.sku,
        psp: values.psp,
        marketId: Number(values.marketId),
        language: values.language,
        photos: values.photos.split('|'),
        custom,
      },
    });
    if (batch.length === BATCH) await flush();
  }
  if (batch.length) await flush();
  return ids;
}

async function row(rowId: string): Promise<void> {
  const projectId = `p-${randomBytes(12).toString('base64url')}`;
  const {
    rows: [claimed],
  } = await pool.query(
    `UPDATE bench_floor_campaign_rows SET claimed_reference = reference, project_id = $2, updated_at = now()
      WHERE id = $1 AND claimed_reference IS NULL RETURNING input`,
    [rowId, projectId],
  );
  const input = claimed.input as RowInput;

  // Generate: the same lookups and statements as /v2/generate.
  const [product, market] = await Promise.all([
    pool.query(`SELECT id, sku, specifications FROM products WHERE client_id = $1 AND sku = $2`, [
      tenant.clientId,
      input.sku,
    ]),
    pool.query('SELECT id FROM markets WHERE client_id = $1 AND market_id = $2', [tenant.clientId, input.marketId]),
  ]);
  const photoId = randomUUID();
  await inTransaction(async (db) => {
    const inserted = await db.query(
      `INSERT INTO end_users (id, client_id, env, external_id, email) VALUES (gen_random_uuid(), $1, $2, $3, $4)
       ON CONFLICT (client_id, env, external_id) DO NOTHING RETURNING id`,
      [tenant.clientId, tenant.env, input.email, input.email],
    );
    const owner = inserted.rows[0]
      ? inserted
      : await db.query('SELECT id FROM end_users WHERE client_id = $1 AND env = $2 AND external_id = $3', [
          tenant.clientId,
          tenant.env,
          input.email,
        ]);
    const now = new Date();
    await db.query(
      `INSERT INTO projects (id, client_id, env, owner_id, product_id, market_id, sku, psp, language, layout_type, e_commerce_plugin,
                             metadata, custom, status, photos_status, storage_key, created_at, updated_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'fastbook', false, '{}', $10, 'created', 'uploading', $1, $11, $11, $12)`,
      [
        projectId,
        tenant.clientId,
        tenant.env,
        owner.rows[0].id,
        product.rows[0].id,
        market.rows[0].id,
        input.sku,
        input.psp,
        input.language,
        JSON.stringify(input.custom),
        now,
        new Date(now.getTime() + TTL_MS),
      ],
    );
    await db.query(
      `INSERT INTO photos (id, project_id, url, position, status, created_at) VALUES ($1, $2, $3, 0, 'uploading', $4)`,
      [photoId, projectId, input.photos[0], now],
    );
    await statusEvent(db, projectId, 'created', { photos: 'uploading', user: input.email });
    await db.query(
      `INSERT INTO bench_floor_flows (workflow_id, name, input, status) VALUES ($1, 'projectBuild', $2, 'PENDING')`,
      [`project-build:${projectId}`, JSON.stringify({ projectId })],
    );
  });
  await pool.query(`UPDATE bench_floor_campaign_rows SET state = 'generated', updated_at = now() WHERE id = $1`, [
    rowId,
  ]);

  // Build: building, the photo fetched, analysed and thumbnailed, the book and its cover, editable.
  await inTransaction(async (db) => {
    await db.query(`UPDATE projects SET status = 'building', updated_at = now() WHERE id = $1 AND status = 'created'`, [
      projectId,
    ]);
    await statusEvent(db, projectId, 'building', { photos: 'uploading' });
  });
  const folder = path.join(dataDir, projectId);
  await mkdir(folder, { recursive: true });
  const original = path.join(folder, `${photoId}.original`);
  const download = await fetch(input.photos[0]);
  await pipeline(
    Readable.fromWeb(download.body! as import('node:stream/web').ReadableStream),
    createWriteStream(original),
  );
  await pool.query(`UPDATE photos SET status = 'analyzing', original_key = $2 WHERE id = $1`, [photoId, original]);
  const analysis = await analyzePhoto({ file: original });
  const thumbnail = path.join(folder, `${photoId}.thumb.jpg`);
  const thumbnailBytes = await makeThumbnail({ file: original });
  await writeFile(thumbnail, thumbnailBytes);
  // The service looks for faces on the thumbnail and keeps them with the photo (the book's crops keep
  // them in view): the same detector here.
  const faces = await detectFaces(thumbnailBytes);
  await inTransaction(async (db) => {
    await db.query(
      `UPDATE photos SET status = 'idle', thumbnail_key = $2, format = $3, width = $4, height = $5, exif_orientation = $6, captured_at = $7, sharpness = $8, quality = $9, faces = $10 WHERE id = $1`,
      [
        photoId,
        thumbnail,
        analysis.format,
        analysis.width,
        analysis.height,
        analysis.exifOrientation,
        analysis.capturedAt,
        analysis.sharpness.toFixed(4),
        analysis.quality.toFixed(4),
        JSON.stringify(faces),
      ],
    );
    await db.query(`UPDATE projects SET photos_status = 'idle', updated_at = now() WHERE id = $1`, [projectId]);
    await statusEvent(db, projectId, 'building', { photos: 'idle' });
  });
  const specifications = product.rows[0].specifications;
  const book = buildBook({
    layoutType: 'fastbook',
    photos: [
      {
        id: photoId,
        width: analysis.width,
        height: analysis.height,
        capturedAt: analysis.capturedAt,
        quality: analysis.quality,
        position: 0,
      },
    ],
    minPages: specifications.min.pages,
    maxPages: specifications.max.pages,
    texts: input.custom,
    fallbackTitle: input.sku,
  });
  const { widthMm, heightMm } = specifications.format;
  const scale = PREVIEW_LONG_SIDE / Math.max(widthMm, heightMm);
  const preview = path.join(folder, 'preview.jpg');
  await writeFile(
    preview,
    await renderCoverPreview({
      widthPx: Math.round(widthMm * scale),
      heightPx: Math.round(heightMm * scale),
      photo: { file: original },
      title: book.cover.title,
      subtitle: book.cover.subtitle,
    }),
  );
  await inTransaction(async (db) => {
    await db.query(
      `UPDATE projects SET status = 'editable', book = $2, title = $3, preview_key = $4, updated_at = now() WHERE id = $1 AND status = 'building'`,
      [projectId, JSON.stringify(book), book.cover.title, preview],
    );
    await statusEvent(db, projectId, 'editable', { photos: 'idle' });
  });

  // The shop's webhook, signed, recorded, and the row notified.
  const deliveryId = randomUUID();
  const payload = JSON.stringify({
    type: 'campaign.project.generated',
    occurredAt: new Date().toISOString(),
    data: { campaignId, projectId, reference: input.reference },
  });
  await pool.query(
    `INSERT INTO bench_floor_deliveries (id, client_id, env, event_key, event, project_id, reference, campaign_id, url, payload, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'campaign.project.generated', $5, $6, $7, $8, $9, 'pending', now(), now())`,
    [
      deliveryId,
      tenant.clientId,
      tenant.env,
      `campaign:${campaignId}:${rowId}`,
      projectId,
      input.reference,
      campaignId,
      hookUrl,
      payload,
    ],
  );
  const at = new Date();
  const answer = await fetch(hookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': deliveryId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': hook.sign(deliveryId, at, payload),
    },
    body: payload,
  });
  await answer.arrayBuffer();
  await inTransaction(async (db) => {
    await db.query(`UPDATE bench_floor_deliveries SET status = 'delivered', updated_at = now() WHERE id = $1`, [
      deliveryId,
    ]);
    await db.query(`UPDATE bench_floor_campaign_rows SET state = 'notified', updated_at = now() WHERE id = $1`, [
      rowId,
    ]);
  });
}

const started = Date.now();
const ids = await importRows();
const imported = Date.now();
const queue = [...ids];
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    for (let id = queue.shift(); id; id = queue.shift()) await row(id);
  }),
);
const seconds = (Date.now() - started) / 1000;
console.log(`floor rows           ${ids.length} (imported in ${((imported - started) / 1000).toFixed(1)} s)`);
console.log(`floor elapsed        ${seconds.toFixed(1)} s`);
console.log(`floor rows per second ${(ids.length / seconds).toFixed(1)}`);
await pool.end();
