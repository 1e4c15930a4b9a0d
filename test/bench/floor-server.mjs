// The floor of the project endpoints: the least bare node:http + pg do for the same answers. The
// credential check the service makes: the credential row cached per access key (as the service's
// credential cache does, so no credentials query per request once warm), HMAC-SHA256 of the secret
// with CREDENTIAL_PEPPER compared in constant time on every request; the same SQL conditions
// (tenant, keyset, status), the same JSON. Plain JavaScript, a pool of 10 like the service's. No
// validation beyond what the benchmark sends, no logging, no metrics, no rate limit: a floor, not a
// product.
//
//   GET  /v2/project/status?id=     one SELECT by id and tenant
//   GET  /v2/project/list?user=&cursor=   the end user, then the keyset page of 100 joined to markets
//   POST /v2/generate               product + market lookups, then in ONE transaction: end user
//                                   (insert or ignore), project, status event + NOTIFY, and a durable
//                                   flow-start row (the build flow "started" before the answer)
//   POST /v2/project/delete         the projects' status set to deleted and a NOTIFY, in one transaction
//   WS   /graphql                   the part of graphql-transport-ws the bench's subscribers speak
//                                   (connection_init with the credentials, subscribe, ping); each
//                                   NOTIFY heard is sent to the project's subscribers, serialized once
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { WebSocketServer } from 'ws';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const pepper = process.env.CREDENTIAL_PEPPER;
// The service's defaults: PUBLIC_URL is its own address, FRONTEND_URL its /editor.
const publicUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${process.env.PORT ?? 4100}`;
const frontendUrl = process.env.FRONTEND_URL ?? `${publicUrl}/editor`;
const ttlMs = 30 * 24 * 3600 * 1000;

// The service's signing schemes, with the keys it derives from the same pepper: a cover preview's
// `/files` URL signed for PREVIEW_URL_TTL (30 days, its expiry rounded up to the hour), HMAC-SHA256 of `key\nexpires`
// (src/storage/file-url-signer.ts), and the editor link's key, HMAC-SHA256 of `id\0seed` under a
// key of its own (src/services/projects/editor-links.ts).
const fileUrlKey = process.env.FILE_URL_SECRET ?? createHmac('sha256', pepper).update('photobook /files URL signing').digest('base64url');
const editorLinkKey = createHmac('sha256', pepper).update('photobook editor link keys').digest();
const previewTtlMs = 30 * 86_400_000;
// What the service keeps, the floor keeps too (the least work for the same answer): a preview's
// URL for the hour its expiry is rounded up to, and each project's editor key.
const previewUrls = new Map();
function signedPreviewUrl(key) {
  const expires = Math.ceil((Date.now() + previewTtlMs) / 3_600_000) * 3600;
  const kept = previewUrls.get(key);
  if (kept?.expires === expires) return kept.url;
  const signature = createHmac('sha256', fileUrlKey).update(`${key}\n${expires}`).digest('base64url');
  const url = `${publicUrl}/files/${key}?${new URLSearchParams({ expires: String(expires), signature })}`;
  previewUrls.set(key, { expires, url });
  return url;
}
const editorKeys = new Map();
function editorKeyOf(row) {
  const message = `${row.id}\u0000${row.editor_key_seed}`;
  let key = editorKeys.get(message);
  if (key === undefined) editorKeys.set(message, (key = createHmac('sha256', editorLinkKey).update(message).digest('base64url').slice(0, 32)));
  return key;
}

// FLOOR_SHARED_RATE_LIMIT=1: each authenticated request also spends a budget shared across
// processes, as rate-limiter-flexible's RateLimiterPostgres does (one upsert of the caller's row of
// an unlogged table): what a rate limit kept in PostgreSQL costs on top of the floor.
const sharedRateLimit = process.env.FLOOR_SHARED_RATE_LIMIT === '1';
if (sharedRateLimit) {
  await pool.query('CREATE UNLOGGED TABLE IF NOT EXISTS bench_floor_rate_limit_counts (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)');
}
async function spendRateLimit(tenant) {
  const now = Date.now();
  await pool.query(
    `INSERT INTO bench_floor_rate_limit_counts VALUES ($1, $2, $3)
       ON CONFLICT(key) DO UPDATE SET
         points = CASE WHEN bench_floor_rate_limit_counts.expire <= $4 THEN $2 ELSE bench_floor_rate_limit_counts.points + ($2) END,
         expire = CASE WHEN bench_floor_rate_limit_counts.expire <= $4 THEN $3 ELSE bench_floor_rate_limit_counts.expire END
     RETURNING points, expire`,
    [`budget:client:${tenant.clientId}:${tenant.env}`, 1, now + 60_000, now],
  );
}

await pool.query(`CREATE TABLE IF NOT EXISTS bench_floor_flows (
  workflow_id text PRIMARY KEY, name text NOT NULL, input jsonb NOT NULL, status text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function authenticate(header) {
  if (!header) throw new HttpError(401, 'the X-Service header is required');
  let parsed;
  try {
    parsed = JSON.parse(header);
  } catch {
    throw new HttpError(401, 'bad X-Service');
  }
  const { accessKey, accessSecret } = parsed ?? {};
  if (typeof accessKey !== 'string' || typeof accessSecret !== 'string') throw new HttpError(401, 'bad X-Service');
  let credential = credentials.get(accessKey);
  if (!credential) {
    const { rows } = await pool.query(
      `SELECT cc.access_secret_digest, cc.env, c.id AS client_id, c.name AS client_name
         FROM client_credentials cc JOIN clients c ON c.id = cc.client_id
        WHERE cc.access_key = $1`,
      [accessKey],
    );
    credential = rows[0];
    if (credential) credentials.set(accessKey, credential);
  }
  const digest = Buffer.from(createHmac('sha256', pepper).update(accessSecret, 'utf8').digest('hex'), 'hex');
  const stored = credential && Buffer.from(credential.access_secret_digest, 'hex');
  if (!stored || stored.length !== digest.length || !timingSafeEqual(stored, digest)) throw new HttpError(401, 'unknown accessKey');
  return { clientId: credential.client_id, clientName: credential.client_name, env: credential.env };
}

/** Credential rows by access key, as the service's credential cache keeps them (the secret is still checked every time). */
const credentials = new Map();

const effective = (row, now = Date.now()) =>
  ['created', 'building', 'editable'].includes(row.status) && row.expires_at.getTime() <= now ? 'expired' : row.status;

async function status(tenant, url) {
  const id = url.searchParams.get('id');
  // The service's one SELECT: the status columns and the failed photos in the same round trip.
  const { rows } = await pool.query(
    `SELECT p.id, p.status, p.photos_status, p.expires_at, p.ordered,
            (SELECT coalesce(json_agg(json_build_object('id', f.id, 'client_photo_id', f.client_photo_id, 'url', f.url, 'problem', f.problem) ORDER BY f.position), '[]')
               FROM photos f WHERE f.project_id = p.id AND (f.status = 'failed' OR (f.status = 'idle' AND f.original_key IS NULL))) AS failed_photos
       FROM projects p WHERE p.id = $1 AND p.client_id = $2 AND p.env = $3`,
    [id, tenant.clientId, tenant.env],
  );
  const row = rows[0];
  if (!row) throw new HttpError(404, `project ${id} not found`);
  const record = { id: row.id, status: { photos: row.photos_status, project: effective(row) } };
  if (row.failed_photos.length > 0)
    record.failedPhotos = row.failed_photos.map((photo) => ({
      id: photo.id,
      ...(photo.client_photo_id ? { clientPhotoId: photo.client_photo_id } : {}),
      url: photo.url,
      problem: photo.problem ?? { code: 'FILE_MISSING', message: 'the stored file of the photo is gone' },
    }));
  if (!row.ordered) return record;
  // An ordered project: its latest order line, the order's addressee and the owner, in one SELECT.
  const { rows: lines } = await pool.query(
    `SELECT l.status, l.tracking_url, o.first_name, o.last_name, o.telephone, o.shipping_address, u.external_id, u.email
       FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN projects p ON p.id = l.project_id JOIN end_users u ON u.id = p.owner_id
      WHERE l.project_id = $1 ORDER BY o.created_at DESC LIMIT 1`,
    [row.id],
  );
  const line = lines[0];
  if (!line) return record;
  const address = line.shipping_address;
  record.status.order = line.status;
  record.user = {
    userId: line.external_id,
    ...(line.email ? { email: line.email, actualEmail: line.email } : {}),
    ...(line.first_name ? { firstName: line.first_name } : {}),
    ...(line.last_name ? { lastName: line.last_name } : {}),
    ...(line.telephone ? { phone: line.telephone } : {}),
    shippingAddress: {
      line1: address.line1,
      city: address.city ?? '',
      state: address.state ?? '',
      postal: address.postcode,
      country: address.country,
      isoCode2: address.isoCode2,
      isoCode3: address.isoCode3,
    },
  };
  if (line.status === 'delivering' && line.tracking_url) record.tracking = line.tracking_url;
  return record;
}

async function list(tenant, url) {
  const user = url.searchParams.get('user');
  const cursor = url.searchParams.get('cursor');
  const owner = await pool.query('SELECT id, external_id FROM end_users WHERE client_id = $1 AND env = $2 AND external_id = $3', [
    tenant.clientId,
    tenant.env,
    user,
  ]);
  if (!owner.rows[0]) return { data: [] };
  const params = [owner.rows[0].id, tenant.clientId, tenant.env];
  let after = '';
  if (cursor) {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    params.push(new Date(createdAt), id);
    after = 'AND (p.created_at, p.id) < ($4, $5)';
  }
  const { rows } = await pool.query(
    `SELECT p.id, p.editor_key_seed, p.title, p.sku, p.psp, p.preview_key, p.status, p.photos_status, p.ordered, p.created_at, p.updated_at, p.expires_at,
            m.market_id, m.market_id_alt
       FROM projects p JOIN markets m ON m.id = p.market_id
      WHERE p.owner_id = $1 AND p.client_id = $2 AND p.env = $3 AND p.status <> 'deleted' ${after}
      ORDER BY p.created_at DESC, p.id DESC LIMIT 101`,
    params,
  );
  const page = rows.slice(0, 100);
  const data = page.map((row) => {
    const link = new URL(frontendUrl);
    link.search = new URLSearchParams({ id: row.id, editorKey: editorKeyOf(row) }).toString();
    return {
      title: row.title ?? row.sku,
      preview: row.preview_key ? signedPreviewUrl(row.preview_key) : '',
      id: row.id,
      createdAt: row.created_at.getTime(),
      updatedAt: row.updated_at.getTime(),
      expiresAt: Math.floor(row.expires_at.getTime() / 1000),
      product: { psp: row.psp, sku: row.sku, marketId: row.market_id, marketIdAlt: row.market_id_alt },
      link: link.toString(),
      status: { photos: row.photos_status, project: effective(row) },
      ordered: row.ordered,
    };
  });
  const last = page.at(-1);
  return rows.length > 100 ? { data, cursor: Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url') } : { data };
}

async function generate(tenant, body) {
  const input = JSON.parse(body);
  const [product, market] = await Promise.all([
    pool.query(`SELECT id, sku, specifications->'psp'->>'name' AS psp FROM products WHERE client_id = $1 AND sku = $2`, [tenant.clientId, String(input.sku)]),
    pool.query('SELECT id, market_id FROM markets WHERE client_id = $1 AND market_id = $2', [tenant.clientId, Number(input.marketId)]),
  ]);
  if (!product.rows[0] || product.rows[0].psp !== input.psp) throw new HttpError(422, 'unknown sku');
  if (!market.rows[0]) throw new HttpError(422, 'unknown market');
  const projectId = `p-${randomBytes(12).toString('base64url')}`;
  const editorKeySeed = randomBytes(18).toString('base64url');
  const user = input.userId ?? `u-${randomBytes(9).toString('base64url')}`;
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    // The service's statements: insert-or-ignore returning the new id, a SELECT only on a conflict.
    const inserted = await db.query(
      `INSERT INTO end_users (id, client_id, env, external_id, email) VALUES (gen_random_uuid(), $1, $2, $3, NULL)
       ON CONFLICT (client_id, env, external_id) DO NOTHING RETURNING id`,
      [tenant.clientId, tenant.env, user],
    );
    const owner = inserted.rows[0] ? inserted : await db.query('SELECT id FROM end_users WHERE client_id = $1 AND env = $2 AND external_id = $3', [tenant.clientId, tenant.env, user]);
    const now = new Date();
    await db.query(
      `INSERT INTO projects (id, client_id, env, owner_id, product_id, market_id, sku, psp, language, layout_type, e_commerce_plugin,
                             metadata, custom, status, photos_status, created_at, updated_at, expires_at, editor_key_seed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'fastbook', false, '{}', '{}', 'created', 'none', $10, $10, $11, $12)`,
      [projectId, tenant.clientId, tenant.env, owner.rows[0].id, product.rows[0].id, market.rows[0].id, product.rows[0].sku, input.psp, input.language ?? 'en', now, new Date(now.getTime() + ttlMs), editorKeySeed],
    );
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`project:${projectId}`]);
    // The event and its NOTIFY in one statement after the lock, as the service writes them.
    await db.query(
      `WITH event AS (
         INSERT INTO status_events (client_id, env, subject_type, subject_id, status, sequence, detail)
         SELECT $1::uuid, $2::environment, 'project', $3::varchar, 'created', COALESCE(MAX(sequence), 0) + 1, $4::jsonb
           FROM status_events WHERE subject_type = 'project' AND subject_id = $5
         RETURNING id)
       SELECT id, pg_notify('status_events', id::text) FROM event`,
      [tenant.clientId, tenant.env, projectId, JSON.stringify({ photos: 'none', user }), projectId],
    );
    await db.query(`INSERT INTO bench_floor_flows (workflow_id, name, input, status) VALUES ($1, 'projectBuild', $2, 'PENDING')`, [
      `project-build:${projectId}`,
      JSON.stringify({ projectId }),
    ]);
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  } finally {
    db.release();
  }
  const link = new URL(frontendUrl);
  link.search = new URLSearchParams({
    id: projectId,
    editorKey: editorKeyOf({ id: projectId, editor_key_seed: editorKeySeed }),
    clientId: tenant.clientId,
    clientName: tenant.clientName,
    user,
    product: 'true',
    marketId: String(market.rows[0].market_id),
    language: input.language ?? 'en',
    sku: product.rows[0].sku,
    psp: input.psp,
  }).toString();
  return { url: link.toString() };
}

async function remove(tenant, body) {
  const { ids } = JSON.parse(body);
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    const { rows } = await db.query(
      "UPDATE projects SET status = 'deleted' WHERE id = ANY($1) AND client_id = $2 AND env = $3 RETURNING id, status, photos_status",
      [ids, tenant.clientId, tenant.env],
    );
    for (const row of rows) {
      await db.query('SELECT pg_notify($1, $2)', [FLOOR_CHANNEL, JSON.stringify({ projectId: row.id, status: { project: row.status, photos: row.photos_status } })]);
    }
    await db.query('COMMIT');
    return { data: rows.map((row) => row.id) };
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  } finally {
    db.release();
  }
}

const FLOOR_CHANNEL = 'bench_floor_status';
/** Subscribers by project id: the socket and the id of its subscribe message. */
const subscribers = new Map();
const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
await listener.connect();
await listener.query(`LISTEN ${FLOOR_CHANNEL}`);
let sequence = 0;
listener.on('notification', ({ payload }) => {
  const event = JSON.parse(payload);
  const data = JSON.stringify({ data: { projectStatusChanged: { projectId: event.projectId, sequence: ++sequence, status: event.status } } });
  for (const { socket, id } of subscribers.get(event.projectId) ?? []) socket.send(`{"id":${JSON.stringify(id)},"type":"next","payload":${data}}`);
});

const sockets = new WebSocketServer({ noServer: true });
sockets.on('connection', (socket) => {
  let subscribed;
  socket.on('message', async (data) => {
    const message = JSON.parse(data.toString());
    if (message.type === 'ping') return socket.send('{"type":"pong"}');
    if (message.type === 'connection_init') {
      const { accessKey, accessSecret } = message.payload ?? {};
      try {
        await authenticate(JSON.stringify({ accessKey, accessSecret }));
        socket.send('{"type":"connection_ack"}');
      } catch {
        socket.close(4403, 'Forbidden');
      }
      return;
    }
    if (message.type === 'subscribe') {
      const projectId = message.payload.variables.id;
      if (!subscribers.has(projectId)) subscribers.set(projectId, new Set());
      subscribed = { socket, id: message.id, projectId };
      subscribers.get(projectId).add(subscribed);
    }
  });
  socket.on('close', () => subscribed && subscribers.get(subscribed.projectId)?.delete(subscribed));
});

const server = http.createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  const url = new URL(request.url, 'http://floor');
  try {
    if (url.pathname === '/healthz') return void response.end('{"status":"ok"}');
    const tenant = await authenticate(request.headers['x-service']);
    if (sharedRateLimit) await spendRateLimit(tenant);
    const result =
      url.pathname === '/v2/project/status'
        ? await status(tenant, url)
        : url.pathname === '/v2/project/list'
          ? await list(tenant, url)
          : url.pathname === '/v2/generate' && request.method === 'POST'
            ? await generate(tenant, body)
            : url.pathname === '/v2/project/delete' && request.method === 'POST'
              ? await remove(tenant, body)
              : null;
    if (!result) throw new HttpError(404, 'no such route');
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(result));
  } catch (error) {
    const code = error instanceof HttpError ? error.status : 500;
    if (code === 500) console.error(error);
    response.writeHead(code, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ status: code, detail: error.message }));
  }
});
server.on('upgrade', (request, socket, head) => {
  if (new URL(request.url, 'http://floor').pathname !== '/graphql') return void socket.destroy();
  sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
});
server.listen(Number(process.env.PORT ?? 4100), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const client of sockets.clients) client.terminate();
    server.close(() => Promise.all([pool.end(), listener.end()]).then(() => process.exit(0)));
  });
}
