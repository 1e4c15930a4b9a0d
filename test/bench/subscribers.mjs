// Idle graphql-ws subscribers, in their own process: reads a spec (JSON on stdin: url, count,
// accessKey, accessSecret, projectId), opens `count` sockets (protocol graphql-transport-ws), each
// subscribing to projectStatusChanged(projectId), prints "ready" once all are acknowledged, then
// prints one JSON line {received, times} (epoch ms with fractions at which each socket got its
// first event) once every socket has one, or after 60 s with what arrived.
// Plain JavaScript, so it starts without a transpiler.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const spec = JSON.parse(input);
const wsUrl = spec.url.replace(/^http/, 'ws') + '/graphql';
const query = 'subscription ($id: String!) { projectStatusChanged(projectId: $id) { projectId sequence status { project photos } } }';
const now = () => performance.timeOrigin + performance.now();
const times = [];
const sockets = [];

function open() {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    sockets.push(socket);
    let subscribed = false;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { accessKey: spec.accessKey, accessSecret: spec.accessSecret } })));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables: { id: spec.projectId } } }));
        // The server acknowledges nothing more; the subscription is live once it was read. A ping
        // round trip after it says the server has handled the subscribe.
        socket.send(JSON.stringify({ type: 'ping' }));
      } else if (message.type === 'pong' && !subscribed) {
        subscribed = true;
        resolve();
      } else if (message.type === 'next') {
        times.push(now());
        if (times.length === spec.count) finish();
      } else if (message.type === 'error') {
        reject(new Error(JSON.stringify(message.payload)));
      }
    });
    socket.on('error', reject);
    socket.on('close', (code) => !subscribed && reject(new Error(`closed ${code}`)));
  });
}

for (let i = 0; i < spec.count; i += 200) {
  await Promise.all(Array.from({ length: Math.min(200, spec.count - i) }, open));
}
process.stdout.write('ready\n');

let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  for (const socket of sockets) socket.terminate();
  // Exit once the line is written: stdout into a pipe is asynchronous, and exiting at once cut
  // 10,000 subscribers' line (190 KB) short, which lost a whole `npm run bench` run.
  process.stdout.write(`${JSON.stringify({ received: times.length, times })}\n`, () => process.exit(0));
}
setTimeout(finish, 60_000 + spec.count * 2);
