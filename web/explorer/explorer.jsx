// The GraphQL explorer the service serves at /graphql/explorer (src/web/explorer-routes.ts): GraphiQL,
// bundled with React and its Monaco editor by scripts/build-explorer.mjs, every file from the
// service's own origin. It calls /graphql with the headers the operator puts in its Headers tab.
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import './explorer.css';

// Monaco runs its language services in workers, built beside this bundle (same origin, worker-src 'self').
globalThis.MonacoEnvironment = {
  getWorker(_workerId, label) {
    const file = label === 'json' ? 'json.worker.js' : label === 'graphql' ? 'graphql.worker.js' : 'editor.worker.js';
    return new Worker(new URL(file, import.meta.url), { type: 'module' });
  },
};

/** POSTs each operation to /graphql with the Headers tab's headers (the API's own credentials). */
async function fetcher(params, options) {
  const response = await fetch(new URL('/graphql', location.href), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...options?.headers },
    body: JSON.stringify(params),
  });
  return response.json();
}

const HEADERS_HINT = JSON.stringify({ 'x-service': '{"accessKey":"…","accessSecret":"…"}' }, null, 2);

createRoot(document.getElementById('explorer')).render(
  <GraphiQL
    fetcher={fetcher}
    defaultHeaders={HEADERS_HINT}
    // A client's secret stays in this tab: not written to the browser's storage.
    shouldPersistHeaders={false}
    defaultEditorToolsVisibility="headers"
  />,
);
