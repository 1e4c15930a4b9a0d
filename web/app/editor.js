import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import { graphqlClient } from './graphql-client.js';
import { change, formatDate, formatNumber, formatPrice, t } from './i18n.js';
import { PhotoPanel, placeFromTray } from './photo-tray.js';

/*
 * The photobook editor. Opened with the query of the editor link (`id`, `editorKey`, `clientId`,
 * `user`, `sku`, ...); the project id and its key open the session (X-Editor-Project and
 * X-Editor-Key), which reaches this one project only, until the link ends (a transfer to another
 * owner, a delete, an expiry): then the socket closes with EDITOR_LINK_ENDED and the page stops
 * showing the book.
 * Every edit is one GraphQL mutation, saved at once; the host page hears about it through
 * window.parent.postMessage (docs/api.md, "Editor channel messages").
 */

const query = new URLSearchParams(location.search);
const projectId = query.get('id');
const editorKey = query.get('editorKey');
/** src/graphql/editor-socket-watch.ts: the server closed the socket because the link ended. */
const EDITOR_LINK_ENDED = 4410;

const client = graphqlClient({
  headers: { 'x-editor-project': projectId ?? '', 'x-editor-key': editorKey ?? '' },
  connectionParams: { editorProject: projectId, editorKey },
  finalCloseCodes: [EDITOR_LINK_ENDED],
});

/** What an edit changes: the book and its revision. */
const BOOK_FIELDS = `
  bookRevision canUndo canRedo
  cover { title subtitle photoId texts { assetId text } }
  pages {
    number layout texts { assetId text } captions { text font sizePt x y width }
    photos { photoId x y width height crop { x y zoom } cropRect { left top width height } }
  }
`;
const PROJECT_FIELDS = `
  id title ordered expiresAt ${BOOK_FIELDS}
  order { status orderedAt statusChangedAt total currency quantity }
  status { project photos }
  product { sku psp }
  format { widthMm heightMm minPages maxPages binding }
  photos { id status problem { code message } width height thumbnail assetId curation { kept reason } }
  printWarnings { page photoId effectiveDpi message }
  preflight { printable problems { code severity page slot message } }
  coverSheet {
    widthMm heightMm spineWidthMm spineText
    trim { xMm yMm widthMm heightMm } back { xMm yMm widthMm heightMm } spine { xMm yMm widthMm heightMm } front { xMm yMm widthMm heightMm }
  }
`;
const LAYOUTS = [
  ['full', 'layoutFull'],
  ['two-side-by-side', 'layoutTwoSideBySide'],
  ['two-stacked', 'layoutTwoStacked'],
  ['grid-4', 'layoutGrid4'],
  ['centred', 'layoutCentred'],
  ['hero-left', 'layoutHeroLeft'],
  ['hero-top', 'layoutHeroTop'],
  ['three-columns', 'layoutThreeColumns'],
  ['three-rows', 'layoutThreeRows'],
  ['hero-top-three', 'layoutHeroTopThree'],
  ['hero-left-three', 'layoutHeroLeftThree'],
  ['grid-6', 'layoutGrid6'],
  ['blank', 'layoutBlank'],
  ['spread', 'layoutSpread'],
];
/** The fonts that ship with the project (src/domain/book.ts CAPTION_FONTS): print sets captions in them. */
const CAPTION_FONTS = ['Source Sans 3', 'Lora'];
/** Caption line spacing: the same as the print render's (src/imaging/print/page-captions.ts). */
const CAPTION_LINE_HEIGHT = 1.25;
const MM_PER_POINT = 25.4 / 72;
/** Slots of each layout (src/services/projects/page-layouts.ts). */
const SLOTS_OF = {
  full: 1,
  'two-side-by-side': 2,
  'two-stacked': 2,
  'grid-4': 4,
  centred: 1,
  'hero-left': 3,
  'hero-top': 3,
  'three-columns': 3,
  'three-rows': 3,
  'hero-top-three': 4,
  'hero-left-three': 4,
  'grid-6': 6,
  blank: 0,
  spread: 1,
};
/**
 * A spread (src/domain/book.ts PAGE_LAYOUTS): its left-hand (even) page holds the slot across both
 * pages (x 0..2); the right-hand page after it shows the same slot one page width to the left.
 */
const isSpreadRight = (page) => page.layout === 'spread' && page.number % 2 === 1;
const STATUS_TEXT = {
  created: 'statusCreated',
  building: 'statusBuilding',
  failed: 'statusFailed',
  editable: 'statusEditable',
  ordering: 'statusOrdering',
  expired: 'statusExpired',
  deleted: 'statusDeleted',
};
/** An order line's status (src/domain/order-status.ts) as its customer follows it: a few steps, not the pipeline's. */
const ORDER_STEP = {
  waiting: 'orderStepWaiting',
  expiring: 'orderStepWaiting',
  'last call': 'orderStepWaiting',
  'files missing': 'orderStepPreparing',
  received: 'orderStepPreparing',
  paid: 'orderStepPreparing',
  processing: 'orderStepPreparing',
  rendering: 'orderStepPreparing',
  rendered: 'orderStepPreparing',
  'sending printjob': 'orderStepPreparing',
  'sent printjob': 'orderStepPreparing',
  accepted: 'orderStepPreparing',
  'on hold': 'orderStepDelayed',
  'failed processing': 'orderStepDelayed',
  abnormal: 'orderStepDelayed',
  undelivered: 'orderStepDelayed',
  printing: 'orderStepPrinting',
  printed: 'orderStepPrinting',
  delivering: 'orderStepShipped',
  'ready for collection': 'orderStepCollect',
  complete: 'orderStepDelivered',
  collected: 'orderStepDelivered',
  cancelled: 'orderStepCancelled',
  refunded: 'orderStepCancelled',
  abandoned: 'orderStepNotCompleted',
  expired: 'orderStepNotCompleted',
  cleaned: 'orderStepClosed',
  deleted: 'orderStepClosed',
};
/** Whether the editor sits in a shop's page (an iframe or a webview's frame) that hears its messages. */
const framed = window.parent && window.parent !== window;
/** The channel to the shop's page that frames the editor (a webview or an iframe). */
function tell(type, fields = {}) {
  const message = { source: 'photobook-editor', type, projectId, ...fields };
  if (window.parent && window.parent !== window) window.parent.postMessage(message, '*');
  window.dispatchEvent(new CustomEvent('photobook-editor', { detail: message }));
}

function App() {
  const [project, setProject] = useState(null);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  /** What pressing Order did: `sent` to the shop's page, or `nowhere` (opened directly, no shop page to hear it). */
  const [orderOutcome, setOrderOutcome] = useState(null);
  const [selected, setSelected] = useState(null);
  /** A photo chosen in the tray: the next slot chosen receives it (photo-tray.js). */
  const [picked, setPicked] = useState(null);
  const readyTold = useRef(false);
  /** The revision of the book shown: edits are made on it, and newer ones from other devices reload it. */
  const revision = useRef(null);
  useEffect(() => {
    revision.current = project?.bookRevision ?? null;
  }, [project]);

  async function load() {
    try {
      const data = await client.request(`query ($id: String!) { project(id: $id) { ${PROJECT_FIELDS} } }`, {
        id: projectId,
      });
      setProject(data.project);
      setError(null);
      if (!readyTold.current) {
        readyTold.current = true;
        tell('ready', { status: data.project.status.project });
      }
    } catch (e) {
      setError(e.code === 'UNAUTHENTICATED' || e.code === 'NOT_FOUND' ? t('linkEnded') : errorText(e));
    }
  }

  /** The book alone first (pages, cover, revision): what another device changed shows at once; the checks follow. */
  async function loadBook() {
    try {
      const data = await client.request(`query ($id: String!) { project(id: $id) { ${BOOK_FIELDS} } }`, {
        id: projectId,
      });
      setProject((shown) => (shown ? { ...shown, ...data.project } : shown));
    } catch {
      // load() reports what went wrong.
    }
  }

  useEffect(() => {
    if (!projectId || !editorKey) {
      setError(t('linkIncomplete'));
      return undefined;
    }
    load();
    const stop = client.subscribe(
      'subscription ($projectId: String) { projectStatusChanged(projectId: $projectId) { status { project photos } sequence } }',
      { projectId },
      () => load(),
      (event) => {
        if (event?.code !== EDITOR_LINK_ENDED) return;
        // What the link may no longer read leaves the page too.
        setProject(null);
        setError(t('linkEnded'));
      },
    );
    // Each edit committed by another tab or device (or this one): show the book as it is now.
    const stopRevisions = client.subscribe(
      'subscription ($projectId: String!) { bookRevised(projectId: $projectId) { revision edit } }',
      { projectId },
      (data) => {
        if (revision.current == null || data.bookRevised.revision > revision.current) loadBook().then(load);
      },
    );
    return () => {
      stop();
      stopRevisions();
    };
  }, []);

  // Photos report their own progress; while the book builds, look again every two seconds as well.
  const building = project && (project.status.project === 'created' || project.status.project === 'building');
  useEffect(() => {
    if (!building) return undefined;
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, [building]);

  // An order's status moves at the printer, not in the book: while the book is ordered, look again now and then.
  const isOrdered = Boolean(project?.ordered);
  useEffect(() => {
    if (!isOrdered) return undefined;
    const timer = setInterval(load, 30_000);
    return () => clearInterval(timer);
  }, [isOrdered]);

  /**
   * One edit, made on the revision shown (expectedRevision): when another device changed the book
   * first, the server refuses it (REVISION_CONFLICT) rather than overwrite, and the latest book is shown.
   */
  async function edit(label, mutation, variables) {
    setBusy(true);
    setNotice(t('saving', { change: label.shown }));
    try {
      const withRevision = mutation
        .replace('$projectId: String!', '$projectId: String!, $expectedRevision: Int')
        .replace('projectId: $projectId', 'projectId: $projectId, expectedRevision: $expectedRevision')
        .replace('{FIELDS}', `{ ${PROJECT_FIELDS} }`);
      const data = await client.request(withRevision, {
        projectId,
        expectedRevision: revision.current,
        ...variables,
      });
      const updated = Object.values(data)[0];
      setProject(updated);
      setError(null);
      setNotice(t('saved', { change: label.shown }));
      tell('saved', {
        change: label.told,
        pageCount: updated.pages.length,
        title: updated.cover?.title ?? updated.title,
      });
    } catch (e) {
      if (e.code === 'REVISION_CONFLICT') {
        setNotice(t('notSavedConflict', { change: label.shown }));
        await load();
      } else {
        setNotice('');
        setError(errorText(e));
      }
    } finally {
      setBusy(false);
      setSelected(null);
    }
  }

  useEffect(() => {
    const onKey = (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.target.closest?.('input, textarea, select')) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey && undoRef.current) {
        e.preventDefault();
        undoRef.current();
      } else if (((key === 'z' && e.shiftKey) || key === 'y') && redoRef.current) {
        e.preventDefault();
        redoRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const undoRef = useRef(null);
  const redoRef = useRef(null);

  if (error && !project) return html`<div class="empty" role="alert">${error}</div>`;
  if (!project) return html`<p class="loading">${t('opening')}</p>`;

  /** An ordered book belongs to its order: shown read-only with the order's status, without edit controls. */
  const ordered = project.ordered || project.status.project === 'ordering';
  const editable = project.status.project === 'editable' && !ordered && !busy;
  const pageCount = project.pages.length;
  const extraPages = Math.max(0, pageCount - project.format.minPages);
  const photoById = new Map(project.photos.map((p) => [p.id, p]));
  const undo = () =>
    edit(change('changeUndo'), 'mutation ($projectId: String!) { undo(projectId: $projectId) {FIELDS} }', {});
  const redo = () =>
    edit(change('changeRedo'), 'mutation ($projectId: String!) { redo(projectId: $projectId) {FIELDS} }', {});
  undoRef.current = editable && project.canUndo ? undo : null;
  redoRef.current = editable && project.canRedo ? redo : null;
  const setCrop = (ref, crop, label = change('changeCrop', { slot: ref.slot + 1, page: ref.page })) =>
    edit(
      label,
      'mutation ($projectId: String!, $slot: SlotRefInput!, $crop: SlotCropInput) { setSlotCrop(projectId: $projectId, slot: $slot, crop: $crop) {FIELDS} }',
      { slot: ref, crop },
    );
  const setCaptions = (page, captions, label) =>
    edit(
      label,
      'mutation ($projectId: String!, $page: Int!, $captions: [PageCaptionInput!]!) { setPageCaptions(projectId: $projectId, page: $page, captions: $captions) {FIELDS} }',
      { page, captions },
    );

  function choose(ref) {
    if (!editable) return;
    if (picked) {
      setPicked(null);
      return placeFromTray(edit, picked, { slot: ref });
    }
    if (!selected) return setSelected(ref);
    if (selected.page === ref.page && selected.slot === ref.slot) return setSelected(null);
    edit(
      change('changeSwap', { a: selected.page, b: ref.page }),
      'mutation ($projectId: String!, $a: SlotRefInput!, $b: SlotRefInput!) { swapPhotos(projectId: $projectId, a: $a, b: $b) {FIELDS} }',
      { a: selected, b: ref },
    );
  }

  const blocking = project.preflight.problems.filter((p) => p.severity === 'blocking');

  function order() {
    if (blocking.length || ordered) return;
    tell('order-requested', {
      sku: project.product.sku,
      psp: project.product.psp,
      pageCount,
      extraPages,
      title: project.cover?.title ?? project.title,
    });
    setNotice('');
    setOrderOutcome(framed ? 'sent' : 'nowhere');
  }

  // The book's openings: page 1 is a right-hand page on its own, then 2-3, 4-5, …, the last (even) page on its own.
  const spreads = project.pages.length ? [project.pages.slice(0, 1)] : [];
  for (let i = 1; i < project.pages.length; i += 2) spreads.push(project.pages.slice(i, i + 2));
  const title = project.cover?.title ?? project.title;

  return html`
    <header class="bar">
      <div class="heading">
        <h1>${title}</h1>
        <p class="sub">${project.product.sku} · ${t('pageCount', { count: pageCount })}${extraPages ? ` ${t('extraPages', { count: extraPages })}` : ''}${
          !ordered && project.expiresAt
            ? html` · <span data-testid="kept-until">${t('keptUntil', { date: formatDate(project.expiresAt) })}</span>`
            : ''
        }</p>
      </div>
      ${
        !ordered &&
        html`<div class="history" role="group" aria-label=${t('undoRedoGroup')}>
        <button type="button" onClick=${undo} disabled=${!editable || !project.canUndo} aria-keyshortcuts="Control+Z" data-testid="undo">${t('undo')}</button>
        <button type="button" onClick=${redo} disabled=${!editable || !project.canRedo} aria-keyshortcuts="Control+Shift+Z" data-testid="redo">${t('redo')}</button>
      </div>`
      }
      <span class=${`status status-${ordered ? 'ordering' : project.status.project}`} role="status" data-testid="project-status">${
        ordered
          ? t('statusOrdering')
          : STATUS_TEXT[project.status.project]
            ? t(STATUS_TEXT[project.status.project])
            : project.status.project
      }</span>
      ${
        !ordered &&
        html`<button class="primary" type="button" onClick=${order} disabled=${project.status.project !== 'editable' || blocking.length > 0}
        aria-describedby=${blocking.length ? 'preflight' : undefined} data-testid="order">${blocking.length ? t('cannotOrder', { why: blockingSummary(blocking) }) : t('order')}</button>`
      }
    </header>
    <p class="notice" aria-live="polite">${notice}</p>
    ${orderOutcome && !ordered && html`<${OrderOutcome} outcome=${orderOutcome} />`}
    ${ordered && html`<${OrderStatus} order=${project.order} />`}
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${building && html`<${BuildProgress} project=${project} />`}
    ${!ordered && html`<${PhotoProblems} photos=${project.photos} />`}
    ${!ordered && html`<${Preflight} preflight=${project.preflight} format=${project.format} pageCount=${pageCount} />`}
    ${
      !ordered &&
      html`<${PhotoPanel} projectId=${projectId} editorKey=${editorKey} project=${project} editable=${editable} edit=${edit}
      picked=${picked} onPick=${setPicked} selected=${selected} onChanged=${load} />`
    }
    ${
      project.cover &&
      html`<${Cover} project=${project} photoById=${photoById} editable=${editable} readOnly=${ordered}
        onSave=${(title, subtitle) => edit(change('changeCover'), 'mutation ($projectId: String!, $title: String!, $subtitle: String) { setCoverTexts(projectId: $projectId, title: $title, subtitle: $subtitle) {FIELDS} }', { title, subtitle })} />`
    }
    ${selected && html`<p class="hint" role="status">${t('selectedHint', { slot: selected.slot + 1, page: selected.page })}</p>`}
    ${selected && editable && html`<${CropTools} slot=${project.pages[selected.page - 1]?.photos[selected.slot]} at=${selected} onCrop=${setCrop} />`}
    <section aria-label=${t('pagesRegion')} class="spreads">
      ${spreads.map(
        (spread) => html`
        <div class="spread-block" key=${spread[0].number}>
          <div class=${spread[0].number === 1 ? 'spread first-page' : 'spread'}>
            ${spread.map((page) => html`<${Page} key=${page.number} page=${page} project=${project} photoById=${photoById} selected=${selected} onChoose=${choose} onCrop=${editable ? setCrop : null} readOnly=${ordered} />`)}
          </div>
          ${
            !ordered &&
            html`<div class=${spread[0].number === 1 ? 'page-tools first-page' : 'page-tools'}>
            ${spread.map((page) => html`<${PageTools} key=${page.number} page=${page} project=${project} pageCount=${pageCount} editable=${editable} edit=${edit} selected=${selected} onCaptions=${setCaptions} />`)}
          </div>
          <div class="spread-tools">
            <button type="button" disabled=${!editable || pageCount + 2 > project.format.maxPages}
              onClick=${() => edit(change('changeAddPages', { page: spread.at(-1).number }), 'mutation ($projectId: String!, $after: Int!) { addPages(projectId: $projectId, after: $after) {FIELDS} }', { after: spread.at(-1).number })}>
              ${t('addPages', { page: spread.at(-1).number })}</button>
            <button type="button" disabled=${!editable || spread.length !== 2 || pageCount - 2 < project.format.minPages}
              onClick=${() => edit(change('changeRemovePages', { first: spread[0].number, last: spread.at(-1).number }), 'mutation ($projectId: String!, $pages: [Int!]!) { removePages(projectId: $projectId, pages: $pages) {FIELDS} }', { pages: spread.map((p) => p.number) })}>
              ${t('removePages', { first: spread[0].number, last: spread.at(-1).number })}</button>
          </div>`
          }
        </div>`,
      )}
    </section>
    ${pageCount === 0 && !building && html`<p class="empty">${t('noPages')}</p>`}
  `;
}

/** What pressing Order did, said plainly: handed to the shop's page, or nothing to hand it to. */
function OrderOutcome({ outcome }) {
  return html`<section class=${`outcome outcome-${outcome}`} role="status" aria-labelledby="order-outcome-title" data-testid="order-outcome">
    <h2 id="order-outcome-title">${outcome === 'sent' ? t('orderSentTitle') : t('orderNowhereTitle')}</h2>
    <p>${outcome === 'sent' ? t('orderSentText') : t('orderNowhereText')}</p>
  </section>`;
}

/** An ordered book's order: when it was placed, where it is now (as the customer follows it) and what it cost. */
function OrderStatus({ order }) {
  return html`<section class="order-status" aria-labelledby="order-status-title" data-testid="order-status">
    <h2 id="order-status-title">${t('orderedTitle')}</h2>
    ${
      order
        ? html`<dl>
      <dt>${t('orderStatusLabel')}</dt><dd data-testid="order-step" data-status=${order.status}>${t(ORDER_STEP[order.status] ?? 'orderStepPreparing')}</dd>
      <dt>${t('orderedOnLabel')}</dt><dd data-testid="ordered-on">${formatDate(order.orderedAt)}</dd>
      <dt>${t('orderTotalLabel')}</dt><dd data-testid="order-total">${formatPrice(order.total, order.currency)}${order.quantity > 1 ? ` (${t('copies', { count: order.quantity })})` : ''}</dd>
    </dl>`
        : html`<p>${t('orderStatusUnknown')}</p>`
    }
    <p class="read-only-note">${t('orderedReadOnly')}</p>
  </section>`;
}

function BuildProgress({ project }) {
  const settled = project.photos.filter((p) => p.status === 'idle' || p.status === 'failed').length;
  return html`
    <section class="progress-card" aria-label=${t('buildingRegion')}>
      <p>${project.status.photos === 'uploading' ? t('buildDownloading') : project.status.photos === 'analyzing' ? t('buildChecking') : t('buildLayingOut')} — ${t('photosReadyOf', { ready: settled, count: project.photos.length })}</p>
      <progress max=${project.photos.length || 1} value=${settled} aria-label=${t('photosReady')}></progress>
      <ul class="photo-strip">
        ${project.photos.map(
          (photo) => html`<li key=${photo.id} class=${`strip-photo photo-${photo.status}`}>
          ${photo.thumbnail ? html`<img src=${photo.thumbnail} alt="" />` : html`<span class="placeholder" aria-hidden="true"></span>`}
          <span class="strip-label">${photo.status === 'failed' ? t('photoStateFailed') : photo.status === 'idle' ? t('photoStateReady') : photo.status === 'analyzing' ? t('photoStateChecking') : t('photoStateDownloading')}</span>
        </li>`,
        )}
      </ul>
    </section>`;
}

function PhotoProblems({ photos }) {
  const failed = photos.filter((p) => p.status === 'failed');
  if (!failed.length) return null;
  return html`
    <section class="problems problems-warning" aria-label=${t('failedPhotosRegion')}>
      <h2><${SeverityTag} severity="warning" />${t('failedPhotosTitle', { count: failed.length })}</h2>
      <ul>${failed.map((p) => html`<li key=${p.id} class="problem">${photoProblemText(p.problem)}</li>`)}</ul>
    </section>`;
}

function Cover({ project, photoById, editable, readOnly, onSave }) {
  const [title, setTitle] = useState(project.cover.title);
  const [subtitle, setSubtitle] = useState(project.cover.subtitle ?? '');
  useEffect(() => {
    setTitle(project.cover.title);
    setSubtitle(project.cover.subtitle ?? '');
  }, [project.cover.title, project.cover.subtitle]);
  const photo = project.cover.photoId && photoById.get(project.cover.photoId);
  return html`
    <section class=${`cover-row${readOnly ? ' read-only' : ''}`} aria-label=${t('coverRegion')}>
      ${
        project.coverSheet
          ? html`<${CoverSpread} project=${project} photo=${photo} />`
          : html`
        <figure class="page cover" style=${{ aspectRatio: `${project.format.widthMm} / ${project.format.heightMm}` }} data-testid="cover">
          ${photo?.thumbnail && html`<img class="cover-photo" src=${photo.thumbnail} alt=${t('coverPhoto')} />`}
          <figcaption class="cover-title"><strong>${project.cover.title}</strong>${project.cover.subtitle && html`<span>${project.cover.subtitle}</span>`}</figcaption>
        </figure>`
      }
      ${
        !readOnly &&
        html`<form class="cover-form" onSubmit=${(e) => {
          e.preventDefault();
          onSave(title, subtitle);
        }}>
        <h2>${t('coverHeading')}</h2>
        <label>${t('coverTitle')} <input name="title" value=${title} maxlength="200" required onInput=${(e) => setTitle(e.currentTarget.value)} disabled=${!editable} /></label>
        <label>${t('coverSubtitle')} <input name="subtitle" value=${subtitle} maxlength="200" onInput=${(e) => setSubtitle(e.currentTarget.value)} disabled=${!editable} /></label>
        <button type="submit" disabled=${!editable}>${t('saveCover')}</button>
      </form>`
      }
    </section>`;
}

/**
 * The cover sheet as it will print (the geometry of cover.pdf, Project.coverSheet): back with its
 * text, spine with its title when the spine is thick enough, front with the photo running out over
 * hinge, wrap and bleed; the dashed line is where the sheet is cut, the rest turns round the boards.
 */
function CoverSpread({ project, photo }) {
  const sheet = project.coverSheet;
  const at = (box) => ({
    left: `${(box.xMm / sheet.widthMm) * 100}%`,
    top: `${(box.yMm / sheet.heightMm) * 100}%`,
    width: `${(box.widthMm / sheet.widthMm) * 100}%`,
    height: `${(box.heightMm / sheet.heightMm) * 100}%`,
  });
  const frontEdge = sheet.spine.xMm + sheet.spine.widthMm;
  const textOf = (assetId) => project.cover.texts.find((t) => t.assetId === assetId)?.text;
  const spineText = textOf('spine') || project.cover.title;
  return html`
    <figure class="cover-spread" style=${{ aspectRatio: `${sheet.widthMm} / ${sheet.heightMm}` }} data-testid="cover"
        aria-label=${t('coverSheetLabel', { width: sheet.widthMm, height: sheet.heightMm, spine: sheet.spineWidthMm })}>
      ${photo?.thumbnail && html`<img class="spread-photo" src=${photo.thumbnail} alt=${t('coverPhoto')} style=${{ left: `${(frontEdge / sheet.widthMm) * 100}%`, width: `${100 - (frontEdge / sheet.widthMm) * 100}%` }} />`}
      <div class="spread-panel spread-back" style=${at(sheet.back)} data-testid="cover-back">${textOf('backCover') && html`<p>${textOf('backCover')}</p>`}</div>
      <div class="spread-panel spread-spine" style=${at(sheet.spine)} data-testid="cover-spine">${sheet.spineText && html`<span>${spineText}</span>`}</div>
      <div class="spread-panel spread-front" style=${at(sheet.front)}>
        <figcaption class="spread-title"><strong>${project.cover.title}</strong>${project.cover.subtitle && html`<span>${project.cover.subtitle}</span>`}</figcaption>
      </div>
      <div class="spread-trim" style=${at(sheet.trim)} aria-hidden="true"></div>
    </figure>`;
}

/** What the preflight found, where it sits; blocking problems first; a run of blank pages is one line. */
function Preflight({ preflight, format, pageCount }) {
  const shown = groupBlankPages(
    [...preflight.problems]
      .filter((p) => p.code !== 'BOOK_NOT_BUILT')
      .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'blocking' ? -1 : 1)),
  );
  if (!shown.length) return null;
  return html`
    <section class=${`problems preflight ${preflight.printable ? 'problems-warning' : 'problems-blocking'}`} id="preflight" aria-label=${t('preflightRegion')}>
      <h2>${preflight.printable ? t('preflightWarnings') : t('preflightBlocking')}</h2>
      <ul>${shown.map((p, i) => html`<li key=${i} class=${`problem problem-${p.severity}`} data-code=${p.code}><${SeverityTag} severity=${p.severity} /><strong>${problemPlace(p)}</strong>: ${problemText(p, format, pageCount)}</li>`)}</ul>
    </section>`;
}

/** A problem's severity in a word and an icon, not by colour alone: a blocking one (red) must be fixed, a warning (amber) may stay. */
function SeverityTag({ severity }) {
  const blocking = severity === 'blocking';
  return html`<span class=${`severity severity-${blocking ? 'blocking' : 'warning'}`}><span class="severity-icon" aria-hidden="true">${blocking ? '✕' : '!'}</span>${blocking ? t('severityBlocking') : t('severityWarning')}</span>${' '}`;
}

/** Where a problem sits: the book, the cover, a page (or a run of pages), a photo on a page. */
function problemPlace(p) {
  if (p.lastPage != null && p.lastPage !== p.page) return t('wherePages', { first: p.page, last: p.lastPage });
  if (p.page == null) return t('whereBook');
  if (p.page === 0) return t('whereCover');
  return p.slot == null ? t('wherePage', { page: p.page }) : t('wherePagePhoto', { page: p.page, slot: p.slot + 1 });
}

/** The preflight's finding in the customer's words (the server's `message` is English, for shops' logs). */
function problemText(p, format, pageCount) {
  switch (p.code) {
    case 'BLANK_PAGE':
      return p.lastPage != null && p.lastPage !== p.page
        ? t('problemBlankPages', { count: p.lastPage - p.page + 1 })
        : t('problemBlankPage');
    case 'PAGE_COUNT_ODD':
      return t('problemPageCountOdd', { count: pageCount });
    case 'PAGE_COUNT_OUT_OF_RANGE':
      return t('problemPageCountRange', { count: pageCount, min: format.minPages, max: format.maxPages });
    default:
      return PROBLEM_TEXT[p.code] ? t(PROBLEM_TEXT[p.code]) : p.message;
  }
}
const PROBLEM_TEXT = {
  NO_USABLE_PHOTO: 'problemNoUsablePhoto',
  TOO_FEW_PHOTOS: 'problemTooFewPhotos',
  PHOTO_FAILED: 'problemPhotoFailed',
  PHOTO_MISSING: 'problemPhotoMissing',
  EMPTY_SLOT: 'problemEmptySlot',
  FACE_ON_FOLD: 'problemFaceOnFold',
  RESOLUTION_TOO_LOW: 'problemResolutionTooLow',
  LOW_RESOLUTION: 'problemLowResolution',
  TEXT_CUT: 'problemTextCut',
};

/** Why a photo could not be used (its Photo.problem), in the customer's words. */
function photoProblemText(problem) {
  const key =
    {
      NOT_AN_IMAGE: 'photoProblemNotImage',
      TOO_LARGE: 'photoProblemTooLarge',
      FILE_MISSING: 'photoProblemMissing',
    }[problem?.code] ?? 'photoProblemDownload';
  return t(key);
}

/** An error the server answered, in the customer's words where the editor knows the code. */
function errorText(e) {
  const key = {
    PROJECT_ORDERED: 'errorOrdered',
    PROJECT_NOT_EDITABLE: 'errorNotEditable',
    PROJECT_EXPIRED: 'errorExpired',
    PROJECT_DELETED: 'linkEnded',
  }[e.code];
  if (key) return t(key);
  return e instanceof TypeError ? t('errorNetwork') : t('errorOther', { message: e.message });
}

/** Consecutive BLANK_PAGE warnings (pages 10 to 23, say) as one, so the list stays readable. */
function groupBlankPages(problems) {
  const grouped = [];
  for (const problem of problems) {
    const last = grouped.at(-1);
    if (problem.code === 'BLANK_PAGE' && last?.code === 'BLANK_PAGE' && last.lastPage === problem.page - 1) {
      last.lastPage = problem.page;
      continue;
    }
    grouped.push(problem.code === 'BLANK_PAGE' ? { ...problem, lastPage: problem.page } : problem);
  }
  return grouped;
}

/** The Order button's words when problems block it: the first one and how many more. */
function blockingSummary(blocking) {
  const first = blocking[0];
  const key = {
    NO_USABLE_PHOTO: 'blockNoUsablePhoto',
    TOO_FEW_PHOTOS: 'blockTooFewPhotos',
    PHOTO_FAILED: 'blockPhotoFailed',
    PHOTO_MISSING: 'blockPhotoMissing',
    EMPTY_SLOT: 'blockEmptySlot',
    RESOLUTION_TOO_LOW: 'blockResolutionTooLow',
    PAGE_COUNT_ODD: 'blockPageCountOdd',
    PAGE_COUNT_OUT_OF_RANGE: 'blockPageCountRange',
  }[first.code];
  const what = key ? t(key) : first.code;
  const placed =
    first.page == null
      ? what
      : first.page === 0
        ? t('blockOnCover', { what })
        : t('blockOnPage', { what, page: first.page });
  return blocking.length > 1 ? t('blockMore', { what: placed, count: blocking.length - 1 }) : placed;
}

/**
 * The photo in its slot exactly as print crops it: `cropRect` (PhotoSlot.cropRect) is the part of the
 * photo the slot shows, computed by the server with the print render's own code (src/domain/slot-crop.ts);
 * the image is scaled and shifted so that part fills the slot. While a drag is under way, `preview`
 * stands in for it until the server answers.
 */
function SlotPhoto({ photo, rect }) {
  if (!photo?.thumbnail) return html`<span class="placeholder">${t('photoNotAvailable')}</span>`;
  if (!rect) return html`<img src=${photo.thumbnail} alt="" />`;
  return html`<img class="cropped" src=${photo.thumbnail} alt="" draggable="false" style=${{
    width: `${100 / rect.width}%`,
    height: `${100 / rect.height}%`,
    left: `${(-rect.left / rect.width) * 100}%`,
    top: `${(-rect.top / rect.height) * 100}%`,
  }} />`;
}

/** The crop rectangle for a focus point and zoom, as src/domain/slot-crop.ts computes it: only for the live preview of a drag. */
function previewRect(photo, slotAspect, crop) {
  const photoAspect = photo.width / photo.height;
  const zoom = Math.min(5, Math.max(1, crop.zoom));
  const width = (photoAspect > slotAspect ? slotAspect / photoAspect : 1) / zoom;
  const height = (photoAspect > slotAspect ? 1 : photoAspect / slotAspect) / zoom;
  const clamp = (v, max) => Math.min(max, Math.max(0, v));
  return { left: clamp(crop.x - width / 2, 1 - width), top: clamp(crop.y - height / 2, 1 - height), width, height };
}

/** Zoom slider and reset for the selected slot; the focus point stays where it is. */
function CropTools({ slot, at, onCrop }) {
  if (!slot?.cropRect) return null;
  const focus = slot.crop ?? {
    x: slot.cropRect.left + slot.cropRect.width / 2,
    y: slot.cropRect.top + slot.cropRect.height / 2,
    zoom: 1,
  };
  const [zoom, setZoom] = useState(focus.zoom);
  useEffect(() => setZoom(focus.zoom), [focus.zoom, at.page, at.slot]);
  const id = `zoom-${at.page}-${at.slot}`;
  return html`<div class="crop-tools" data-testid="crop-tools">
    <label for=${id}>${t('zoomLabel', { slot: at.slot + 1, page: at.page })}</label>
    <input id=${id} type="range" min="1" max="5" step="0.1" value=${zoom} data-testid="zoom"
      onInput=${(e) => setZoom(Number(e.currentTarget.value))}
      onChange=${(e) => onCrop(at, { x: focus.x, y: focus.y, zoom: Number(e.currentTarget.value) })} />
    <output for=${id}>${formatNumber(zoom, { style: 'percent', maximumFractionDigits: 0 })}</output>
    ${[
      ['←', 'panLeft', -0.05, 0],
      ['→', 'panRight', 0.05, 0],
      ['↑', 'panUp', 0, -0.05],
      ['↓', 'panDown', 0, 0.05],
    ].map(
      ([arrow, way, dx, dy]) => html`<button type="button" key=${way} aria-label=${t(way)} title=${t(way)}
        onClick=${() => onCrop(at, { x: clampUnit(focus.x + dx), y: clampUnit(focus.y + dy), zoom: focus.zoom }, change('changePan', { slot: at.slot + 1, page: at.page }))}>${arrow}</button>`,
    )}
    <button type="button" disabled=${!slot.crop} onClick=${() => onCrop(at, null, change('changeAutoCrop', { slot: at.slot + 1, page: at.page }))}>${t('resetCrop')}</button>
  </div>`;
}

const clampUnit = (value) => Math.min(1, Math.max(0, value));

/** A print warning's kind: below the print floor (`low…`) or soft (src/domain/print-warning.ts words its message). */
const warningKey = (warning) => (warning.message.startsWith('low') ? 'warningLow' : 'warningSoft');

/** The customer's text boxes, placed and sized as print sets them (src/imaging/print/page-captions.ts). */
function Captions({ page, format }) {
  return (page.captions ?? []).map(
    (caption, i) =>
      html`<p class="caption" key=${i} data-testid=${`caption-${page.number}-${i}`} style=${{
        left: `${caption.x * 100}%`,
        top: `${caption.y * 100}%`,
        width: `${caption.width * 100}%`,
        fontFamily: `'${caption.font}', serif`,
        // Points on paper as a share of the page's width: the same size at any zoom of the screen.
        fontSize: `${((caption.sizePt * MM_PER_POINT) / format.widthMm) * 100}cqw`,
        lineHeight: CAPTION_LINE_HEIGHT,
      }}>${caption.text}</p>`,
  );
}

function Page({ page, project, photoById, selected, onChoose, onCrop, readOnly }) {
  // A spread's right page shows its left page's slot, one page width along; choosing it chooses that slot.
  const owner = isSpreadRight(page) ? page.number - 1 : page.number;
  const slots = isSpreadRight(page)
    ? (project.pages[owner - 1]?.photos ?? []).map((slot) => ({ ...slot, x: slot.x - 1 }))
    : page.photos;
  const [preview, setPreview] = useState(null);
  const drag = useRef(null);
  /** Dragging the selected photo pans it in its frame: the focus point moves against the pointer. */
  function pointerDown(e, index, slot, photo) {
    const isSelected = selected && selected.page === owner && selected.slot === index;
    if (!isSelected || !onCrop || !slot.cropRect || !photo?.width) return;
    const box = e.currentTarget.getBoundingClientRect();
    const start = slot.crop ?? {
      x: slot.cropRect.left + slot.cropRect.width / 2,
      y: slot.cropRect.top + slot.cropRect.height / 2,
      zoom: 1,
    };
    drag.current = {
      index,
      box,
      startX: e.clientX,
      startY: e.clientY,
      start,
      crop: start,
      moved: false,
      photo,
      rect: slot.cropRect,
    };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  }
  function pointerMove(e) {
    const d = drag.current;
    if (!d) return;
    const dx = (e.clientX - d.startX) / d.box.width;
    const dy = (e.clientY - d.startY) / d.box.height;
    if (Math.abs(e.clientX - d.startX) + Math.abs(e.clientY - d.startY) > 3) d.moved = true;
    const crop = {
      x: Math.min(1, Math.max(0, d.start.x - dx * d.rect.width)),
      y: Math.min(1, Math.max(0, d.start.y - dy * d.rect.height)),
      zoom: d.start.zoom,
    };
    d.crop = crop;
    setPreview({ index: d.index, rect: previewRect(d.photo, d.box.width / d.box.height, crop) });
  }
  function pointerUp() {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    if (d.moved) {
      onCrop({ page: owner, slot: d.index }, d.crop, change('changePan', { slot: d.index + 1, page: owner }));
      lastDrag.current = Date.now();
    }
    setPreview(null);
  }
  const lastDrag = useRef(0);
  const ratio = `${project.format.widthMm} / ${project.format.heightMm}`;
  const warnings = project.printWarnings.filter((w) => w.page === String(owner));
  const blockers = project.preflight.problems.filter((p) => p.severity === 'blocking' && p.page === owner);
  const blank = project.preflight.problems.find((p) => p.code === 'BLANK_PAGE' && p.page === page.number);
  return html`
    <figure class="page-wrap" data-testid=${`page-${page.number}`} data-page=${page.number}>
      <div class="page" style=${{ aspectRatio: ratio }}>
        ${slots.map((slot, index) => {
          const photo = photoById.get(slot.photoId);
          const warning = warnings.find((w) => w.photoId === slot.photoId);
          const blocker = blockers.find((p) => p.slot === index);
          const isSelected = selected && selected.page === owner && selected.slot === index;
          const box = {
            left: `${slot.x * 100}%`,
            top: `${slot.y * 100}%`,
            width: `${slot.width * 100}%`,
            height: `${slot.height * 100}%`,
          };
          const label = t('slotLabel', { slot: index + 1, page: owner });
          // Ordered: the photo as it prints, nothing to choose.
          if (readOnly)
            return html`<div key=${index} class="slot" role="img" aria-label=${label} style=${box} data-photo-id=${slot.photoId}>
              <${SlotPhoto} photo=${photo} rect=${slot.cropRect} />
            </div>`;
          return html`<button type="button" key=${index} class=${`slot${isSelected ? ' selected' : ''}`}
              style=${box}
              aria-pressed=${isSelected ? 'true' : 'false'}
              aria-label=${`${label}${blocker ? `, ${t('slotCannotPrint', { why: problemText(blocker, project.format, project.pages.length) })}` : warning ? `, ${t(warningKey(warning), { dpi: warning.effectiveDpi })}` : ''}. ${t('slotSelectHint')}`}
              data-photo-id=${slot.photoId} data-page=${owner} data-slot=${index}
              onPointerDown=${(e) => pointerDown(e, index, slot, photo)} onPointerMove=${pointerMove} onPointerUp=${pointerUp}
              onClick=${() => {
                // The click that ends a drag is not a choice.
                if (Date.now() - lastDrag.current < 300) return;
                onChoose({ page: owner, slot: index });
              }}>
            <${SlotPhoto} photo=${photo} rect=${preview?.index === index ? preview.rect : slot.cropRect} />
            ${blocker && html`<span class="badge block" title=${problemText(blocker, project.format, project.pages.length)}><span aria-hidden="true">✕ </span>${t('badgeCannotPrint')}</span>`}
            ${!blocker && warning && html`<span class="badge warn" title=${t(warningKey(warning), { dpi: warning.effectiveDpi })}><span aria-hidden="true">! </span>${t(warningKey(warning) === 'warningLow' ? 'badgeTooSmall' : 'badgeSoft', { dpi: warning.effectiveDpi })}</span>`}
          </button>`;
        })}
        ${page.texts.map((text) => html`<p class="page-text" key=${text.assetId}>${text.text}</p>`)}
        <${Captions} page=${page} format=${project.format} />
        ${slots.length === 0 && html`<span class="blank-note">${t('blankPage')}</span>`}
        ${!readOnly && blank && html`<span class="badge warn page-problem" title=${t('problemBlankPage')} data-testid=${`blank-warning-${page.number}`}><span aria-hidden="true">! </span>${t('badgePrintsBlank')}</span>`}
        ${!readOnly && blockers.filter((p) => p.slot == null).map((p) => html`<span class="badge block page-problem" key=${p.code} title=${problemText(p, project.format, project.pages.length)}><span aria-hidden="true">✕ </span>${t('badgeCannotPrint')}</span>`)}
      </div>
      <figcaption class="page-number">${t('pageNumber', { page: page.number })}</figcaption>
    </figure>`;
}

/** Adds a text box to a page (a caption, in a font that ships with the project), or removes the page's text boxes. */
function CaptionForm({ page, editable, onCaptions }) {
  const [text, setText] = useState('');
  const [font, setFont] = useState(CAPTION_FONTS[0]);
  const [size, setSize] = useState(14);
  const captions = page.captions ?? [];
  const id = `caption-${page.number}`;
  return html`<details class="caption-form">
    <summary>${t('captionSummary', { page: page.number })}</summary>
    <form onSubmit=${(e) => {
      e.preventDefault();
      if (!text.trim()) return;
      const added = { text, font, sizePt: size, x: 0.1, y: Math.min(0.85, 0.1 + captions.length * 0.1), width: 0.8 };
      onCaptions(page.number, [...captions, added], change('changeCaption', { page: page.number }));
      setText('');
    }}>
      <label for=${`${id}-text`}>${t('captionText')}</label>
      <textarea id=${`${id}-text`} maxlength="500" rows="2" value=${text} disabled=${!editable} onInput=${(e) => setText(e.currentTarget.value)} data-testid=${`caption-text-${page.number}`}></textarea>
      <label for=${`${id}-font`}>${t('captionFont')}</label>
      <select id=${`${id}-font`} value=${font} disabled=${!editable} onChange=${(e) => setFont(e.currentTarget.value)}>
        ${CAPTION_FONTS.map((f) => html`<option value=${f}>${f}</option>`)}
      </select>
      <label for=${`${id}-size`}>${t('captionSize')}</label>
      <input id=${`${id}-size`} type="number" min="6" max="72" value=${size} disabled=${!editable} onInput=${(e) => setSize(Number(e.currentTarget.value))} />
      <button type="submit" disabled=${!editable || !text.trim()} data-testid=${`caption-add-${page.number}`}>${t('captionAdd')}</button>
      ${captions.length > 0 && html`<button type="button" disabled=${!editable} onClick=${() => onCaptions(page.number, [], change('changeCaptionsRemoved', { page: page.number }))}>${t('captionRemoveAll')}</button>`}
    </form>
  </details>`;
}

function PageTools({ page, pageCount, editable, edit, selected, onCaptions, project }) {
  const room = isSpreadRight(page) ? 0 : SLOTS_OF[page.layout === 'blank' ? 'full' : page.layout] - page.photos.length;
  // A spread starts on a layflat book's left-hand page whose right-hand page holds no photo.
  const facing = project.pages[page.number];
  const spreadOffered =
    project.format.binding === 'layflat' &&
    page.number % 2 === 0 &&
    facing &&
    (page.layout === 'spread' || facing.photos.length === 0);
  const move = (to) =>
    edit(
      change('changeMovePage', { from: page.number, to }),
      'mutation ($projectId: String!, $from: Int!, $to: Int!) { movePage(projectId: $projectId, from: $from, to: $to) {FIELDS} }',
      { from: page.number, to },
    );
  const id = `layout-${page.number}`;
  return html`<div class="page-tool-cell">
    <div class="tools">
      <button type="button" aria-label=${t('movePageLeft', { page: page.number })} title=${t('movePageLeft', { page: page.number })} disabled=${!editable || page.number === 1} onClick=${() => move(page.number - 1)}>◀</button>
      ${
        isSpreadRight(page)
          ? html`<span class="spread-half" id=${id} data-testid=${`spread-right-${page.number}`}>${t('spreadRightHalf')}</span>`
          : html`<label for=${id} class="visually-hidden">${t('layoutOfPage', { page: page.number })}</label>
      <select id=${id} disabled=${!editable} value=${page.layout}
        onChange=${(e) => edit(change('changeLayout', { page: page.number }), 'mutation ($projectId: String!, $page: Int!, $layout: String!) { setPageLayout(projectId: $projectId, page: $page, layout: $layout) {FIELDS} }', { page: page.number, layout: e.currentTarget.value })}>
        ${LAYOUTS.filter(([value]) => value !== 'spread' || spreadOffered).map(([value, label]) => html`<option value=${value} disabled=${SLOTS_OF[value] < page.photos.length}>${t(label)}</option>`)}
      </select>`
      }
      <button type="button" aria-label=${t('movePageRight', { page: page.number })} title=${t('movePageRight', { page: page.number })} disabled=${!editable || page.number === pageCount} onClick=${() => move(page.number + 1)}>▶</button>
    </div>
    ${
      selected &&
      selected.page !== page.number &&
      room > 0 &&
      html`<button type="button" class="move-here"
        onClick=${() => edit(change('changeMovePhoto', { from: selected.page, to: page.number }), 'mutation ($projectId: String!, $from: SlotRefInput!, $toPage: Int!) { movePhoto(projectId: $projectId, from: $from, toPage: $toPage) {FIELDS} }', { from: selected, toPage: page.number })}>
        ${t('movePhotoHere', { page: page.number })}</button>`
    }
    <${CaptionForm} page=${page} editable=${editable} onCaptions=${onCaptions} />
  </div>`;
}

// The server sends the shell in English; the tab's title follows the customer's language.
document.title = t('pageTitle');
const root = document.getElementById('app');
root.textContent = ''; // the server-sent "loading" line
render(html`<${App} />`, root);
