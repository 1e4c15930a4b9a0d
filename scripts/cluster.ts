/**
 * `npm run cluster`: the scale-out shape on this machine, for people to try: 2 API processes
 * (ROLE=api) and 2 workers (ROLE=worker) on one PostgreSQL behind HAProxy, all on loopback. Uses
 * DATABASE_URL when set, else a private PostgreSQL of its own (deleted on exit). Prints the
 * balancer's URL and an operator command for a client; Ctrl-C stops everything.
 * Options: APIS=n WORKERS=m (default 2 each), CLUSTER_PORT (default 8080); any other setting
 * (FILE_STORE, durations) is passed to every process.
 */
import { startCluster } from '../test/support/cluster';
import { startPrivatePostgres, type PrivatePostgres } from '../test/support/private-postgres';
import pg from 'pg';

const count = (value: string | undefined, fallback: number) => (value && /^[1-9]\d*$/.test(value) ? Number(value) : fallback);

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
const cluster = await startCluster({
  databaseUrl,
  apis: count(process.env.APIS, 2),
  workers: count(process.env.WORKERS, 2),
  port: count(process.env.CLUSTER_PORT, 8080),
}).catch(async (error: unknown) => {
  await postgres?.destroy();
  throw error;
});
console.log(`Photobook cluster: ${cluster.apis.length} API processes and ${cluster.workers.length} workers behind HAProxy`);
console.log(`  balancer     ${cluster.url}   (docs: ${cluster.url}/docs)`);
for (const member of [...cluster.apis, ...cluster.workers]) console.log(`  ${member.name.padEnd(12)} ${member.url}${member.executorId ? `   executor ${member.executorId}` : ''}`);
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
      await postgres?.destroy();
    } catch (error) {
      console.error('could not stop everything:', error);
      process.exit(1);
    }
    process.exit(0);
  });
}
