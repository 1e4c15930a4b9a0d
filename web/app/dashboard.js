import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import { graphqlClient } from './graphql-client.js';
// The order line statuses to filter by, served from the service's domain (src/web/routes.ts).
import { ORDER_STATUSES } from '../vocabulary.js';

/*
 * The operations dashboard: a client's orders (searched, paged, each with its whole history), its
 * webhook endpoint and deliveries, campaigns and projects. The
 * access key and secret are kept in this tab's sessionStorage only and sent as the X-Service header
 * (graphql-ws: the connection_init payload), exactly as the API's own clients send them.
 */

const STORE = 'photobook-dashboard-credentials';

// Every filter is optional: without variables this is the newest orders (the API's default page).
const ORDERS = `query ($first: Int, $after: String, $status: String, $createdAfter: String, $createdBefore: String,
  $orderId: String, $customer: String) {
  orders(first: $first, after: $after, status: $status, createdAfter: $createdAfter, createdBefore: $createdBefore,
    orderId: $orderId, customer: $customer) {
  edges { node {
  orderId createdAt email firstName lastName telephone paymentStatus grandTotal currency
  shippingLevel shippingMethod quoteId warnings { code message }
  shippingAddress { company line1 line2 postcode city state isoCode2 country } actions { action available reason }
  holdUntil
  lines { projectId title sku psp quantity status displayStatus statusChangedAt failureReason tracking
    routing { printers printer }
    parcels { carrier trackingNumber trackingUrl } pageCount warnings { page photoId effectiveDpi message }
    printFiles { coverPdfUrl coverPreviewUrl interiorPdfUrl manifestUrl pages } }
} } pageInfo { hasNextPage endCursor } } }`;
// A campaign's rows and deliveries are asked for one campaign at a time: the whole list with its
// nested rows would exceed the GraphQL cost limit (README, Limits).
const CAMPAIGNS = `query { campaigns(first: 20) { edges { node {
  id status csvUrl createdAt reason counts { rows generated notified failed invalid duplicate }
} } } }`;
const CAMPAIGN_DETAILS = `query ($id: String!) { campaign(id: $id) {
  rows(first: 100) { edges { node { line reference state projectId reason } } }
  deliveries(first: 100) { edges { node { id status url reference projectId attempts { attemptedAt statusCode error latencyMs } } } }
} }`;
const ORDER_EVENTS = `query ($orderId: String!) { events(orderId: $orderId, first: 100) { events { id type occurredAt sequence data } } }`;
const CANCEL = `mutation ($orderId: String!, $key: String) { cancelOrder(orderId: $orderId, idempotencyKey: $key) { orderId } }`;
const CHANGE_ADDRESS = `mutation ($orderId: String!, $user: OrderUserInput!, $key: String) { updateOrderRecipient(orderId: $orderId, user: $user, idempotencyKey: $key) { orderId } }`;
const PROJECTS = `query ($user: String!) { projects(user: $user, first: 50) { edges { node { id title link createdAt status { project photos } ordered } } } }`;

function SignIn({ onSignIn, error }) {
  const [accessKey, setKey] = useState('');
  const [accessSecret, setSecret] = useState('');
  return html`
    <form class="signin" onSubmit=${(e) => {
      e.preventDefault();
      onSignIn({ accessKey: accessKey.trim(), accessSecret: accessSecret.trim() });
    }}>
      <h1>Operations dashboard</h1>
      <p class="sub">Sign in with a client's access key and secret (dev: sandbox, prod: live). They stay in this tab only.</p>
      <label>Access key <input name="accessKey" autocomplete="username" required value=${accessKey} onInput=${(e) => setKey(e.currentTarget.value)} /></label>
      <label>Access secret <input name="accessSecret" type="password" autocomplete="current-password" required value=${accessSecret} onInput=${(e) => setSecret(e.currentTarget.value)} /></label>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <button class="primary" type="submit">Sign in</button>
    </form>`;
}

function App() {
  const [credentials, setCredentials] = useState(() => JSON.parse(sessionStorage.getItem(STORE) ?? 'null'));
  const [error, setError] = useState(null);
  const [client, setClient] = useState(null);

  useEffect(() => {
    if (!credentials) return;
    const candidate = graphqlClient({
      headers: { 'x-service': JSON.stringify(credentials) },
      connectionParams: credentials,
    });
    candidate
      .request('query { orders(first: 1) { pageInfo { hasNextPage } } }')
      .then(() => {
        sessionStorage.setItem(STORE, JSON.stringify(credentials));
        setClient(candidate);
        setError(null);
      })
      .catch((e) => {
        sessionStorage.removeItem(STORE);
        setCredentials(null);
        setError(e.code === 'UNAUTHENTICATED' ? 'Unknown access key or wrong secret.' : e.message);
      });
  }, [credentials]);

  if (!credentials || (!client && error)) return html`<${SignIn} onSignIn=${setCredentials} error=${error} />`;
  if (!client) return html`<p class="loading">Signing in…</p>`;
  return html`<${Dashboard} client=${client} onSignOut=${() => {
    sessionStorage.removeItem(STORE);
    setClient(null);
    setCredentials(null);
  }} />`;
}

function Dashboard({ client, onSignOut }) {
  const [tab, setTab] = useState('orders');
  const tabs = [
    ['orders', 'Orders'],
    ['webhooks', 'Webhooks'],
    ['campaigns', 'Campaigns'],
    ['projects', 'Projects'],
  ];
  return html`
    <header class="bar">
      <div class="heading"><h1>Operations dashboard</h1></div>
      <button type="button" onClick=${onSignOut}>Sign out</button>
    </header>
    <nav class="tabs" role="tablist" aria-label="Sections">
      ${tabs.map(([id, label]) => html`<button type="button" role="tab" aria-selected=${tab === id ? 'true' : 'false'} onClick=${() => setTab(id)}>${label}</button>`)}
    </nav>
    ${tab === 'orders' && html`<${Orders} client=${client} />`}
    ${tab === 'webhooks' && html`<${Webhooks} client=${client} />`}
    ${tab === 'campaigns' && html`<${Campaigns} client=${client} />`}
    ${tab === 'projects' && html`<${Projects} client=${client} />`}`;
}

/** An order's events as webhooks sent them, asked for when opened. */
function OrderEvents({ client, orderId }) {
  const [events, setEvents] = useState(null);
  const [error, setError] = useState(null);
  const load = () =>
    client
      .request(ORDER_EVENTS, { orderId })
      .then((d) => setEvents(d.events.events))
      .catch((e) => setError(e.message));
  return html`
    <details class="events" onToggle=${(e) => e.currentTarget.open && load()}>
      <summary>Events</summary>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${events && html`<ol data-testid=${`events-${orderId}`}>${events.map((e) => html`<li key=${e.id}><code>${e.type}</code> ${e.sequence !== null ? `#${e.sequence}` : ''} ${e.data.line?.status ?? ''}${e.data.decision ? ` ${e.data.decision}: ${e.data.printer}${e.data.next ? ` → ${e.data.next}` : ''}` : ''}${e.data.reason ? html` · <span class="reason">${e.data.reason}</span>` : ''} · ${new Date(e.occurredAt).toLocaleString()}</li>`)}</ol>`}
    </details>`;
}

/** Cancel and Change address, offered only while the order's actions say they are available. */
function OrderActions({ client, order, onDone }) {
  const [error, setError] = useState(null);
  const [editing, setEditing] = useState(false);
  const available = (name) => order.actions.find((a) => a.action === name)?.available;
  const run = (query, variables) =>
    client
      .request(query, { ...variables, key: crypto.randomUUID() })
      .then(() => {
        setError(null);
        setEditing(false);
        onDone();
      })
      .catch((e) => setError(e.message));
  const submit = (event) => {
    event.preventDefault();
    const form = Object.fromEntries(new FormData(event.currentTarget));
    run(CHANGE_ADDRESS, {
      orderId: order.orderId,
      user: {
        firstName: order.firstName ?? undefined,
        lastName: order.lastName ?? undefined,
        address: {
          line1: form.line1,
          postcode: form.postcode,
          city: form.city || undefined,
          countryIso2: form.countryIso2,
        },
      },
    });
  };
  const address = order.shippingAddress;
  return html`
    <div class="actions">
      ${available('cancel') && html`<button type="button" onClick=${() => window.confirm(`Cancel order ${order.orderId}?`) && run(CANCEL, { orderId: order.orderId })}>Cancel</button>`}
      ${available('update-recipient') && html`<button type="button" onClick=${() => setEditing(!editing)}>Change address</button>`}
      ${
        editing &&
        html`
        <form onSubmit=${submit} aria-label="Change address">
          <label>Street <input name="line1" required value=${address.line1} /></label>
          <label>Postcode <input name="postcode" required value=${address.postcode} /></label>
          <label>City <input name="city" value=${address.city ?? ''} /></label>
          <label>Country (ISO) <input name="countryIso2" required maxlength="2" value=${address.isoCode2} /></label>
          <button type="submit">Save address</button>
        </form>`
      }
      ${error && html`<p class="error" role="alert">${error}</p>`}
    </div>`;
}

const NO_FILTERS = { orderId: '', customer: '', status: '', from: '', to: '', pageSize: '20' };
const LINE_HISTORY = `subscription ($orderId: String!, $projectId: String!) {
  orderStatusChanged(orderId: $orderId, projectId: $projectId, afterSequence: 0) { sequence status occurredAt }
}`;

/** The form's fields as the API's filters; a "to" day is included whole (created before the next UTC midnight). */
function filtersOf(form) {
  const nextDay = (day) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    ...(form.orderId.trim() ? { orderId: form.orderId.trim() } : {}),
    ...(form.customer.trim() ? { customer: form.customer.trim() } : {}),
    ...(form.status ? { status: form.status } : {}),
    ...(form.from ? { createdAfter: form.from } : {}),
    ...(form.to ? { createdBefore: nextDay(form.to) } : {}),
  };
}

function OrderFilters({ applied, onApply }) {
  const [form, setForm] = useState(applied);
  const set = (name) => (e) => setForm({ ...form, [name]: e.currentTarget.value });
  const field = (name) => ({ name, value: form[name], onInput: set(name) });
  const submit = (e) => {
    e.preventDefault();
    onApply(form);
  };
  return html`
    <form class="card filters" role="search" aria-label="Search orders" onSubmit=${submit}>
      <label>Order id <input ...${field('orderId')} /></label>
      <label>Customer (name or e-mail) <input ...${field('customer')} /></label>
      <div class="field"><label for="filter-status">Status</label>
        <select id="filter-status" name="status" value=${form.status} onChange=${set('status')}>
          <option value="">Any status</option>
          ${ORDER_STATUSES.map((s) => html`<option key=${s} value=${s}>${s}</option>`)}
        </select>
      </div>
      <label>Created from (UTC) <input type="date" ...${field('from')} /></label>
      <label>Created to (UTC, inclusive) <input type="date" ...${field('to')} /></label>
      <div class="field"><label for="filter-page-size">Per page</label>
        <select id="filter-page-size" name="pageSize" value=${form.pageSize} onChange=${set('pageSize')}>
          ${['10', '20', '50'].map((n) => html`<option key=${n} value=${n}>${n}</option>`)}
        </select>
      </div>
      <div class="filter-buttons">
        <button class="primary" type="submit">Search</button>
        <button type="button" onClick=${() => {
          setForm(NO_FILTERS);
          onApply(NO_FILTERS);
        }}>Clear</button>
      </div>
    </form>`;
}

/**
 * One line's whole history: the subscription replays the line's recorded status events from the
 * first (afterSequence 0), then goes on live; the service reads what it missed at a gap, and the
 * events are kept by sequence here, so a replay after the socket reconnects adds no duplicates.
 */
function LineHistory({ client, order, line }) {
  const [events, setEvents] = useState(() => new Map());
  const [error, setError] = useState(null);
  const keep = ({ orderStatusChanged: event }) =>
    setEvents((known) => (known.has(event.sequence) ? known : new Map(known).set(event.sequence, event)));
  const fail = (e) =>
    setError(Array.isArray(e) ? e.map((x) => x.message).join('; ') : (e?.message ?? 'the live feed closed'));
  const variables = { orderId: order.orderId, projectId: line.projectId };
  useEffect(() => client.subscribe(LINE_HISTORY, variables, keep, fail), [order.orderId, line.projectId]);
  const steps = [...events.values()].sort((a, b) => a.sequence - b.sequence);
  const at = (iso) => html`<time datetime=${iso}>${new Date(iso).toLocaleString()}</time>`;
  return html`
    <div class="history">
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <ol class="timeline history-list" aria-label=${`History of ${line.title}`}
        data-testid=${`history-${line.projectId}`}>
        <li><span class="step">created</span> ${at(order.createdAt)}</li>
        ${steps.map(
          (e, i) => html`
          <li key=${e.sequence} class=${i === steps.length - 1 ? 'current' : ''}>
            <span class="step">${e.status}</span> <span class="seq">#${e.sequence}</span> ${at(e.occurredAt)}
          </li>`,
        )}
      </ol>
    </div>`;
}

function addressLines(order) {
  const a = order.shippingAddress;
  return [
    [order.firstName, order.lastName].filter(Boolean).join(' '),
    a.company,
    a.line1,
    a.line2,
    [a.postcode, a.city].filter(Boolean).join(' '),
    a.state,
    `${a.country} (${a.isoCode2})`,
  ].filter(Boolean);
}

/** The printer routing gave a line, and the printers it tries in turn; each decision is in the order's events. */
function LineRouting({ routing }) {
  return html`<p class="sub" data-testid="line-routing">Printer: <strong>${routing.printer ?? 'not yet accepted'}</strong> (routed to ${routing.printers.join(' then ')})</p>`;
}

function OrderCard({ client, order, onChanged }) {
  const [open, setOpen] = useState(false);
  const customer = [order.firstName, order.lastName].filter(Boolean).join(' ');
  const created = new Date(order.createdAt).toLocaleString();
  const summary = [created, customer, order.email, `${order.grandTotal} ${order.currency}`].filter(Boolean).join(' · ');
  const copies = (line) =>
    html`<span data-testid="line-quantity">${line.quantity} ${line.quantity === 1 ? 'copy' : 'copies'}</span>`;
  return html`
    <article class="card" data-testid=${`order-${order.orderId}`} aria-label=${`Order ${order.orderId}`}>
      <h3>Order ${order.orderId} <span class="status">${order.paymentStatus}</span></h3>
      <p class="sub">${summary}</p>
      <p class="sub" data-testid="order-shipping">Shipping: ${order.shippingLevel ?? 'no level'}${order.shippingMethod && order.shippingMethod !== order.shippingLevel ? ` (sent as “${order.shippingMethod}”)` : ''} · ${order.quoteId ? `quote ${order.quoteId}` : 'no quote'}</p>
      <address class="sub" data-testid="order-address">
        Ship to: ${addressLines(order).join(', ')}${order.telephone ? ` · ${order.telephone}` : ''}
      </address>
      ${order.warnings.length > 0 && html`<ul class="warnings" aria-label="Order warnings" data-testid="order-warnings">${order.warnings.map((w) => html`<li key=${w.code}>${w.message}</li>`)}</ul>`}
      ${order.holdUntil && html`<p class="sub" data-testid="order-hold">Held until ${new Date(order.holdUntil).toLocaleString()}: cancel and changes are free until then; it goes to the printer after</p>`}
      <${OrderActions} client=${client} order=${order} onDone=${onChanged} />
      ${order.lines.map(
        (line) => html`
        <div key=${line.projectId} class="line">
          <p><strong>${line.title}</strong> · ${line.sku} · ${line.pageCount ?? '?'} pages · ${copies(line)} · <span data-testid="line-status" class=${`status status-line-${line.status}`}>${line.status}</span>${line.displayStatus !== line.status ? ` (${line.displayStatus})` : ''}${line.failureReason ? html` · <span data-testid="line-failure" class="status-line-failure">${line.failureReason}</span>` : ''}</p>
          ${line.routing && html`<${LineRouting} routing=${line.routing} />`}
          ${open && html`<${LineHistory} client=${client} order=${order} line=${line} />`}
          ${
            line.parcels.length > 0
              ? html`<ul class="parcels" aria-label="Parcels">${line.parcels.map((p, i) => html`<li key=${i}>${p.carrier ?? 'Parcel'} ${p.trackingNumber ?? ''} ${p.trackingUrl && html`<a href=${p.trackingUrl} target="_blank" rel="noopener">Track the parcel</a>`}</li>`)}</ul>`
              : line.tracking &&
                html`<p><a href=${line.tracking} target="_blank" rel="noopener">Track the parcel</a></p>`
          }
          ${line.printFiles?.coverPreviewUrl && html`<img class="cover-sheet-preview" src=${line.printFiles.coverPreviewUrl} alt=${`Cover sheet of ${line.title}, as printed`} />`}
          ${line.printFiles && html`<p class="print-files">Print files (${line.printFiles.pages} pages; links expire): ${line.printFiles.coverPdfUrl && html`<a href=${line.printFiles.coverPdfUrl} target="_blank" rel="noopener">Cover PDF</a> · `}<a href=${line.printFiles.interiorPdfUrl} target="_blank" rel="noopener">Interior PDF</a> · <a href=${line.printFiles.manifestUrl} target="_blank" rel="noopener">manifest</a></p>`}
          ${line.warnings.length > 0 && html`<ul class="warnings" aria-label="Print warnings">${line.warnings.map((w) => html`<li>Page ${w.page}: ${w.message}</li>`)}</ul>`}
        </div>`,
      )}
      <button type="button" aria-expanded=${open ? 'true' : 'false'} onClick=${() => setOpen(!open)}>
        ${open ? 'Hide history' : 'Show history'}
      </button>
      <${OrderEvents} client=${client} orderId=${order.orderId} />
    </article>`;
}

/** The orders of one page of one search; every status change of the client reloads the page shown. */
function Orders({ client }) {
  const [applied, setApplied] = useState(NO_FILTERS);
  // The cursors of the pages seen so far: cursors[i] opens page i + 1 (undefined: the first).
  const [cursors, setCursors] = useState([undefined]);
  const [page, setPage] = useState(null);
  const [error, setError] = useState(null);
  const pageNumber = cursors.length;
  const variables = { first: Number(applied.pageSize), after: cursors.at(-1), ...filtersOf(applied) };
  const load = () =>
    client
      .request(ORDERS, variables)
      .then((d) => {
        setPage({ orders: d.orders.edges.map((e) => e.node), pageInfo: d.orders.pageInfo });
        setError(null);
      })
      .catch((e) => setError(e.message));
  const latest = useRef(load);
  latest.current = load;

  useEffect(() => {
    load();
  }, [JSON.stringify(variables)]);
  useEffect(() => {
    let timer;
    const stop = client.subscribe('subscription { orderStatusChanged { orderId sequence } }', {}, () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), 250);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, []);

  const search = (form) => {
    setApplied(form);
    setCursors([undefined]);
  };
  const filtered = Object.keys(filtersOf(applied)).length > 0;
  const counts = {};
  for (const line of (page?.orders ?? []).flatMap((order) => order.lines)) {
    counts[line.status] = (counts[line.status] ?? 0) + 1;
  }
  return html`
    <section aria-label="Orders">
      <${OrderFilters} applied=${applied} onApply=${search} />
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${!page && !error && html`<p class="loading">Loading orders…</p>`}
      ${
        page &&
        html`
        <h2>Lines on this page by status</h2>
        <ul class="counts" data-testid="order-counts">
          ${Object.entries(counts).map(([status, n]) => html`<li key=${status}><strong>${n}</strong>${status}</li>`)}
          ${page.orders.length === 0 && html`<li>${filtered ? 'No orders match' : 'No orders yet'}</li>`}
        </ul>
        ${page.orders.map(
          (order) => html`
          <${OrderCard} key=${order.orderId} client=${client} order=${order} onChanged=${load} />`,
        )}
        <nav class="pager" aria-label="Pages of orders">
          <button type="button" disabled=${pageNumber === 1} onClick=${() => setCursors(cursors.slice(0, -1))}>
            Previous page
          </button>
          <span data-testid="order-page">Page ${pageNumber}</span>
          <button type="button" disabled=${!page.pageInfo.hasNextPage}
            onClick=${() => setCursors([...cursors, page.pageInfo.endCursor])}>
            Next page
          </button>
        </nav>`
      }
    </section>`;
}

const WEBHOOK = `query { webhook {
  url updatedAt eventTypes failingSince disabledAt disabledReason previousSecretExpiresAt
} }`;
const DELIVERIES = `query ($after: String) { webhookDeliveries(first: 20, after: $after) {
  edges { node { id event url reference status createdAt attempts { attemptedAt statusCode error latencyMs } } }
  pageInfo { hasNextPage endCursor }
} }`;

/** The shop's webhook endpoint and its recent deliveries with each attempt's outcome. */
function Webhooks({ client }) {
  const [endpoint, setEndpoint] = useState(undefined);
  const [deliveries, setDeliveries] = useState(null);
  const [more, setMore] = useState(null);
  const [error, setError] = useState(null);
  const fail = (e) => setError(e.message);
  // The newest page again (new deliveries, attempts that settled); older pages are asked for anew.
  const load = async () => {
    try {
      const [w, d] = await Promise.all([client.request(WEBHOOK), client.request(DELIVERIES)]);
      setEndpoint(w.webhook);
      setDeliveries(d.webhookDeliveries.edges.map((e) => e.node));
      setMore(d.webhookDeliveries.pageInfo);
      setError(null);
    } catch (e) {
      fail(e);
    }
  };
  const older = async () => {
    try {
      const d = await client.request(DELIVERIES, { after: more.endCursor });
      const page = d.webhookDeliveries.edges.map((e) => e.node);
      setDeliveries((shown) => [...shown, ...page.filter((n) => !shown.some((old) => old.id === n.id))]);
      setMore(d.webhookDeliveries.pageInfo);
    } catch (e) {
      fail(e);
    }
  };
  const run = (query, variables) => client.request(query, variables).then(load).catch(fail);
  useEffect(() => {
    load();
  }, []);
  // Deliveries being attempted are looked at again until they settle.
  const pending = (deliveries ?? []).some((d) => d.status === 'pending');
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(load, 1000);
    return () => clearTimeout(timer);
  }, [deliveries]);

  if (endpoint === undefined) {
    return error ? html`<p class="error" role="alert">${error}</p>` : html`<p class="loading">Loading webhooks…</p>`;
  }
  const attempt = (a) =>
    `${new Date(a.attemptedAt).toLocaleTimeString()} → ${a.statusCode ?? a.error} (${a.latencyMs} ms)`;
  const attempts = (d) => d.attempts.map(attempt).join('; ');
  const replay = (id) => run('mutation ($id: String!) { replayWebhook(deliveryId: $id) { id } }', { id });
  return html`
    <section aria-label="Webhooks">
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <article class="card" data-testid="webhook-endpoint">
        <h2>Webhook endpoint</h2>
        ${
          endpoint
            ? html`<p><code>${endpoint.url}</code></p>
              ${
                endpoint.disabledAt &&
                html`<div class="error" role="alert" data-testid="webhook-disabled">
                  <p>
                    <strong>Disabled ${new Date(endpoint.disabledAt).toLocaleString()}</strong>: every event
                    delivery failed since ${new Date(endpoint.failingSince).toLocaleString()}, so nothing is sent to it.
                    Events recorded meanwhile are on the catch-up feed (<code>GET /v2/events</code>).
                  </p>
                  <p class="sub">${endpoint.disabledReason}</p>
                  <button type="button" onClick=${() => run('mutation { enableWebhook { disabledAt } }')}>
                    Enable the endpoint again
                  </button>
                </div>`
              }
              ${
                !endpoint.disabledAt &&
                endpoint.failingSince &&
                html`<p class="warnings" data-testid="webhook-failing">
                  Failing since ${new Date(endpoint.failingSince).toLocaleString()}: deliveries are retried for about
                  27 hours; an endpoint that keeps failing (5 days by default) is disabled.
                </p>`
              }
              ${
                endpoint.previousSecretExpiresAt &&
                html`<p class="sub">
                  The replaced signing secret also signs until ${new Date(endpoint.previousSecretExpiresAt).toLocaleString()}.
                </p>`
              }
              <p class="sub">
                Receives ${endpoint.eventTypes.join(', ')} · set ${new Date(endpoint.updatedAt).toLocaleString()}
              </p>
              ${
                !endpoint.disabledAt &&
                html`<button type="button" onClick=${() => run('mutation { sendTestWebhook { id } }')}>
                  Send a test event
                </button>`
              }`
            : html`<p class="sub">
              No webhook is set for this environment
              (GraphQL <code>setWebhook</code>, or the CLI's <code>webhook set</code>).
            </p>`
        }
      </article>
      <h2>Recent deliveries</h2>
      ${deliveries.length === 0 && html`<p class="empty">No deliveries yet.</p>`}
      ${
        deliveries.length > 0 &&
        html`<div class="table-wrap"><table aria-label="Recent webhook deliveries">
        <thead><tr>
          <th>Created</th><th>Event</th><th>Reference</th><th>URL</th><th>Outcome</th><th>Attempts</th>
          <th><span class="visually-hidden">Actions</span></th>
        </tr></thead>
        <tbody>${deliveries.map(
          (d) => html`<tr key=${d.id} data-testid=${`delivery-${d.id}`}>
          <td>${new Date(d.createdAt).toLocaleString()}</td><td><code>${d.event}</code></td><td>${d.reference}</td>
          <td class="url">${d.url}</td><td>${d.status}</td><td>${attempts(d)}</td>
          <td>${
            d.status === 'failed' &&
            html`
            <button type="button" onClick=${() => replay(d.id)} aria-label=${`Replay delivery ${d.id}`}>
              Replay
            </button>`
          }</td>
        </tr>`,
        )}</tbody>
      </table></div>`
      }
      ${more?.hasNextPage && html`<button type="button" onClick=${older}>Older deliveries</button>`}
    </section>`;
}

function Campaigns({ client }) {
  const [campaigns, setCampaigns] = useState(null);
  const [error, setError] = useState(null);
  const load = async () => {
    try {
      const list = (await client.request(CAMPAIGNS)).campaigns.edges.map((e) => e.node);
      const details = await Promise.all(list.map((c) => client.request(CAMPAIGN_DETAILS, { id: c.id })));
      setCampaigns(list.map((c, i) => ({ ...c, ...details[i].campaign })));
    } catch (e) {
      setError(e.message);
    }
  };
  useEffect(() => {
    load();
  }, []);
  useEffect(() => {
    const running = (campaigns ?? []).filter((c) => c.status !== 'completed' && c.status !== 'failed');
    const stops = running.map((c) =>
      client.subscribe(
        'subscription ($id: String!) { campaignProgress(id: $id) { status sequence } }',
        { id: c.id },
        () => load(),
      ),
    );
    return () => stops.forEach((stop) => stop());
  }, [campaigns?.map((c) => `${c.id}:${c.status}`).join()]);

  // Deliveries being attempted (first sends, retries, replays) are looked at again until they settle.
  const pending = (campaigns ?? []).some((c) => c.deliveries.edges.some(({ node }) => node.status === 'pending'));
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setTimeout(load, 1500);
    return () => clearTimeout(timer);
  }, [campaigns]);

  async function replay(id) {
    try {
      await client.request('mutation ($id: String!) { replayWebhook(deliveryId: $id) { id status } }', { id });
      load();
    } catch (e) {
      setError(e.message);
    }
  }

  if (!campaigns)
    return error ? html`<p class="error" role="alert">${error}</p>` : html`<p class="loading">Loading campaigns…</p>`;
  return html`
    <section aria-label="Campaigns">
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${campaigns.length === 0 && html`<p class="empty">No campaigns yet.</p>`}
      ${campaigns.map((c) => {
        const done = c.counts.notified + c.counts.failed + c.counts.invalid + c.counts.duplicate;
        const percent = c.counts.rows ? Math.round((100 * done) / c.counts.rows) : 0;
        return html`
          <article class="card" key=${c.id}>
            <h3>Campaign ${c.id} <span class="status">${c.status}</span></h3>
            <p class="sub">${c.csvUrl} · ${c.counts.rows} rows · ${c.counts.generated} generated · ${c.counts.notified} notified · ${c.counts.failed} failed · ${c.counts.invalid} invalid${c.reason ? ` · ${c.reason}` : ''}</p>
            <div class="bar-track" role="progressbar" aria-label=${`Campaign ${c.id} progress`} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${percent}><div class="bar-fill" style=${{ width: `${percent}%` }}></div></div>
            <details><summary>Rows</summary><div class="table-wrap"><table>
              <thead><tr><th>Line</th><th>Reference</th><th>State</th><th>Project</th><th>Reason</th></tr></thead>
              <tbody>${c.rows.edges.map(({ node: r }) => html`<tr key=${r.line}><td>${r.line}</td><td>${r.reference}</td><td>${r.state}</td><td>${r.projectId}</td><td>${r.reason}</td></tr>`)}</tbody>
            </table></div></details>
            <details><summary>Webhook deliveries</summary><div class="table-wrap"><table>
              <thead><tr><th>Reference</th><th>Status</th><th>Attempts</th><th></th></tr></thead>
              <tbody>${c.deliveries.edges.map(
                ({ node: d }) => html`<tr key=${d.id}>
                <td>${d.reference}</td><td>${d.status}</td>
                <td>${d.attempts.map((a) => `${new Date(a.attemptedAt).toLocaleTimeString()} → ${a.statusCode ?? a.error} (${a.latencyMs} ms)`).join('; ')}</td>
                <td><button type="button" onClick=${() => replay(d.id)} aria-label=${`Replay the webhook for ${d.reference}`}>Replay</button></td>
              </tr>`,
              )}</tbody>
            </table></div></details>
          </article>`;
      })}
    </section>`;
}

function Projects({ client }) {
  const [user, setUser] = useState('');
  const [projects, setProjects] = useState(null);
  const [error, setError] = useState(null);
  async function search(e) {
    e.preventDefault();
    try {
      const data = await client.request(PROJECTS, { user: user.trim() });
      setProjects(data.projects.edges.map((edge) => edge.node));
      setError(null);
    } catch (err) {
      setError(err.message);
    }
  }
  return html`
    <section aria-label="Projects per end user">
      <form class="card" onSubmit=${search}>
        <label>End user (userId or e-mail) <input name="user" required value=${user} onInput=${(e) => setUser(e.currentTarget.value)} /></label>
        <button type="submit">Show projects</button>
      </form>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${
        projects &&
        html`<div class="table-wrap"><table>
        <thead><tr><th>Project</th><th>Title</th><th>Status</th><th>Created</th></tr></thead>
        <tbody>${projects.map((p) => html`<tr key=${p.id}><td><a href=${p.link}>${p.id}</a></td><td>${p.title}</td><td>${p.status.project}${p.ordered ? ' · ordered' : ''}</td><td>${new Date(p.createdAt).toLocaleString()}</td></tr>`)}</tbody>
      </table></div>`
      }
    </section>`;
}

const root = document.getElementById('app');
root.textContent = ''; // the server-sent "loading" line
render(html`<${App} />`, root);
