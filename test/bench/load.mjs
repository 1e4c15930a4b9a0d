// The load generator, in its own process: reads a spec (JSON on stdin: url, connections, seconds,
// method, headers, paths, bodies), runs autocannon, and prints one JSON line of figures.
// Plain JavaScript, so it starts without a transpiler.
import autocannon from 'autocannon';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const spec = JSON.parse(input);
let next = 0;
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  headers: { 'content-type': 'application/json', ...spec.headers },
  requests: [
    {
      method: spec.method ?? 'GET',
      setupRequest: (request) => {
        const i = next++;
        const path = spec.paths[i % spec.paths.length];
        const body = spec.bodies ? spec.bodies[i % spec.bodies.length] : undefined;
        return { ...request, path, ...(body ? { body } : {}) };
      },
    },
  ],
});
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }),
);
