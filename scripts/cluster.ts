/**
 * `npm run cluster`: the scale-out shape on this machine, for people to try: 2 API processes
 * (ROLE=api) and 2 workers (ROLE=worker) on one PostgreSQL behind HAProxy, all on loopback. Uses
 * DATABASE_URL when set, else a private PostgreSQL of its own (deleted on exit). Prints the
 * balancer's URL and an operator command for a client; Ctrl-C stops everything. Files go to an
 * S3 test server of its own (@20minutes/s3rver on loopback), as they would to MinIO or S3 on
 * several machines, unless FILE_STORE names a store.
 * Options: APIS=n WORKERS=m (default 2 each), CLUSTER_PORT (default 8080); any other setting
 * (FILE_STORE and S3_*, durations) is passed to every process.
 */
import { startCluster } from '../test/support/cluster';
import { startPrivatePostgres, type PrivatePostgres } from '../test/support/private-postgres';
import { startS3TestServer, type S3TestServer } from '../test/support/s3-test-server';
import pg from 'pg';

const count = (value: string | undefined, fallback: number) =>
  value && /^[1-9]\d*$/.test(value) ? Number(value) : fallback;

let postgres: PrivatePostgres | undefined;
let databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  postgres = await startPrivatePostgres();
  const admin = new pg.Client({ connectionString: `${postgres.serverUrl}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE photobook');
  await admin.end();
  databaseUrl = `${postgres.serverUrl}/photobook`;
}
const s3: S3TestServer | undefined = process.env.FILE_STORE ? undefined : await startS3TestServer();
const cluster = await startCluster({
  databaseUrl,
  env: s3?.env ?? {},
  apis: count(process.env.APIS, 2),
  workers: count(process.env.WORKERS, 2),
  port: count(process.env.CLUSTER_PORT, 8080),
}).catch(async (error: unknown) => {
  await s3?.stop();
  await postgres?.destroy();
  throw error;
});
console.log(
  `Photobook cluster: ${cluster.apis.length} API processes and ${cluster.workers.length} workers behind HAProxy`,
);
console.log(`  balancer     ${cluster.url}   (docs: ${cluster.url}/docs)`);
console.log(
  `  files        ${s3 ? `${s3.env.FILE_STORE} on the S3 test server ${s3.endpoint}` : process.env.FILE_STORE}`,
);
for (const member of [...cluster.apis, ...cluster.workers])
  console.log(
    `  ${member.name.padEnd(12)} ${member.url}${member.executorId ? `   executor ${member.executorId}` : ''}`,
  );
console.log(`  demo client  ${cluster.dataDir}/demo-client.json (dev and prod credentials)`);
console.log(`  a client     ${(await cluster.cli('client', 'create', '--name', 'Cluster shop', '--json')).trim()}`);
console.log('Ctrl-C stops it.');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping the cluster');
    try {
      await cluster.stop();
      await s3?.stop();
      await postgres?.destroy();
    } catch (error) {
      console.error('could not stop everything:', error);
      process.exit(1);
    }
    process.exit(0);
  });
}
