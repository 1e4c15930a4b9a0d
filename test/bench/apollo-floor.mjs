// The floor of the GraphQL row: @apollo/server's own standalone server (startStandaloneServer, on
// node:http) with one resolver, `project(id)`, running the status row's SELECT (by id and tenant).
// The context function checks X-Service as floor-server.mjs does (credential row cached per access
// key, HMAC of the secret compared on every request; without the header only `__typename` answers). Apollo's defaults otherwise (its CSRF check,
// its landing page, its cache-control plugin); no validation of our own, no logging, no metrics, no
// rate limit, no type-graphql: what the stack's own GraphQL server costs for the same answer.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { GraphQLError } from 'graphql';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const pepper = process.env.CREDENTIAL_PEPPER;
const credentials = new Map();

const unauthenticated = () => new GraphQLError('unknown accessKey', { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });

async function authenticate(header) {
  if (header === undefined) return undefined;
  let parsed;
  try {
    parsed = JSON.parse(header ?? '');
  } catch {
    throw unauthenticated();
  }
  const { accessKey, accessSecret } = parsed ?? {};
  if (typeof accessKey !== 'string' || typeof accessSecret !== 'string') throw unauthenticated();
  let credential = credentials.get(accessKey);
  if (!credential) {
    const { rows } = await pool.query(
      `SELECT cc.access_secret_digest, cc.env, c.id AS client_id FROM client_credentials cc JOIN clients c ON c.id = cc.client_id WHERE cc.access_key = $1`,
      [accessKey],
    );
    credential = rows[0];
    if (credential) credentials.set(accessKey, credential);
  }
  const digest = Buffer.from(createHmac('sha256', pepper).update(accessSecret, 'utf8').digest('hex'), 'hex');
  const stored = credential && Buffer.from(credential.access_secret_digest, 'hex');
  if (!stored || stored.length !== digest.length || !timingSafeEqual(stored, digest)) throw unauthenticated();
  return { clientId: credential.client_id, env: credential.env };
}

const effective = (row, now = Date.now()) =>
  ['created', 'building', 'editable'].includes(row.status) && row.expires_at.getTime() <= now ? 'expired' : row.status;

const typeDefs = `#graphql
  type ProjectStatusPair { project: String! photos: String! }
  type Project { id: String! status: ProjectStatusPair! }
  type Query { project(id: String!): Project }
`;
const resolvers = {
  Query: {
    async project(_root, { id }, { tenant }) {
      if (!tenant) throw unauthenticated();
      // The service's status SELECT (its statusRow): the status columns and the failed photos in one round trip.
      const { rows } = await pool.query(
        `SELECT p.id, p.status, p.photos_status, p.expires_at, p.ordered,
                (SELECT coalesce(json_agg(json_build_object('id', f.id, 'client_photo_id', f.client_photo_id, 'url', f.url, 'problem', f.problem) ORDER BY f.position), '[]')
                   FROM photos f WHERE f.project_id = p.id AND (f.status = 'failed' OR (f.status = 'idle' AND f.original_key IS NULL))) AS failed_photos
           FROM projects p WHERE p.id = $1 AND p.client_id = $2 AND p.env = $3`,
        [id, tenant.clientId, tenant.env],
      );
      if (!rows[0]) throw new GraphQLError(`project ${id} not found`, { extensions: { code: 'NOT_FOUND' } });
      return { id: rows[0].id, status: { project: effective(rows[0]), photos: rows[0].photos_status } };
    },
  },
};

const server = new ApolloServer({ typeDefs, resolvers });
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env.PORT ?? 4101), host: '127.0.0.1' },
  context: async ({ req }) => ({ tenant: await authenticate(req.headers['x-service']) }),
});
process.stderr.write(`apollo floor at ${url}\n`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.stop().then(() => pool.end()).then(() => process.exit(0));
  });
}
