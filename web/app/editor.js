import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import { graphqlClient } from './graphql-client.js';
import { t } from './i18n.js';

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
  id title ordered ${BOOK_FIELDS}
  status { project photos }
  product { sku psp }
  format { widthMm heightMm minPages maxPages }
  photos { id status problem { code message } width height thumbnail assetId }
  printWarnings { page photoId effectiveDpi message }
  preflight { printable problems { code severity page slot message } }
  coverSheet {
    widthMm heightMm spineWidthMm spineText
    trim { xMm yMm widthMm heightMm } back { xMm yMm widthMm heightMm } spine { xMm yMm widthMm heightMm } front { xMm yMm widthMm heightMm }
  }
`;
const LAYOUTS = [
  ['full', 'One photo'],
  ['two-side-by-side', 'Two side by side'],
  ['two-stacked', 'Two stacked'],
  ['grid-4', 'Grid of four'],
  ['centred', 'One photo, centred'],
  ['hero-left', 'One tall beside two'],
  ['hero-top', 'One wide over two'],
  ['three-columns', 'Three side by side'],
  ['three-rows', 'Three stacked'],
  ['hero-top-three', 'One wide over three'],
  ['hero-left-three', 'One tall beside three'],
  ['grid-6', 'Grid of six'],
  ['blank', 'Blank'],
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
};
const STATUS_TEXT = {
  created: 'Getting started',
  building: 'Building your book',
  editable: 'Ready to edit',
  ordering: 'Ordered',
  expired: 'Expired',
  deleted: 'Deleted',
};

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
  const [selected, setSelected] = useState(null);
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
      setError(e.code === 'UNAUTHENTICATED' || e.code === 'NOT_FOUND' ? t('linkEnded') : e.message);
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
      setError('This page opens from a photobook link (it needs the project id and its key).');
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

  /**
   * One edit, made on the revision shown (expectedRevision): when another device changed the book
   * first, the server refuses it (REVISION_CONFLICT) rather than overwrite, and the latest book is shown.
   */
  async function edit(label, mutation, variables) {
    setBusy(true);
    setNotice(`Saving: ${label}…`);
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
      setNotice(`Saved: ${label}`);
      tell('saved', { change: label, pageCount: updated.pages.length, title: updated.cover?.title ?? updated.title });
    } catch (e) {
      if (e.code === 'REVISION_CONFLICT') {
        setNotice(`Not saved: ${label}. The book was changed on another device; this is the latest version.`);
        await load();
      } else {
        setNotice('');
        setError(e.message);
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
  if (!project) return html`<p class="loading">Opening your photobook…</p>`;

  const editable = project.status.project === 'editable' && !busy;
  const pageCount = project.pages.length;
  const extraPages = Math.max(0, pageCount - project.format.minPages);
  const photoById = new Map(project.photos.map((p) => [p.id, p]));
  const undo = () => edit('undo', 'mutation ($projectId: String!) { undo(projectId: $projectId) {FIELDS} }', {});
  const redo = () => edit('redo', 'mutation ($projectId: String!) { redo(projectId: $projectId) {FIELDS} }', {});
  undoRef.current = editable && project.canUndo ? undo : null;
  redoRef.current = editable && project.canRedo ? redo : null;
  const setCrop = (ref, crop, label = `cropped photo ${ref.slot + 1} on page ${ref.page}`) =>
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
    if (!selected) return setSelected(ref);
    if (selected.page === ref.page && selected.slot === ref.slot) return setSelected(null);
    edit(
      `swapped photos on pages ${selected.page} and ${ref.page}`,
      'mutation ($projectId: String!, $a: SlotRefInput!, $b: SlotRefInput!) { swapPhotos(projectId: $projectId, a: $a, b: $b) {FIELDS} }',
      { a: selected, b: ref },
    );
  }

  const blocking = project.preflight.problems.filter((p) => p.severity === 'blocking');

  function order() {
    if (blocking.length) return;
    tell('order-requested', {
      sku: project.product.sku,
      psp: project.product.psp,
      pageCount,
      extraPages,
      title: project.cover?.title ?? project.title,
    });
    setNotice('Your book is on its way to the cart.');
  }

  const spreads = [];
  for (let i = 0; i < project.pages.length; i += 2) spreads.push(project.pages.slice(i, i + 2));

  return html`
    <header class="bar">
      <div class="heading">
        <h1>${project.cover?.title ?? project.title}</h1>
        <p class="sub">${project.product.sku} · ${pageCount} pages${extraPages ? ` (${extraPages} extra)` : ''}</p>
      </div>
      <div class="history" role="group" aria-label="Undo and redo">
        <button type="button" onClick=${undo} disabled=${!editable || !project.canUndo} aria-keyshortcuts="Control+Z" data-testid="undo">Undo</button>
        <button type="button" onClick=${redo} disabled=${!editable || !project.canRedo} aria-keyshortcuts="Control+Shift+Z" data-testid="redo">Redo</button>
      </div>
      <span class=${`status status-${project.status.project}`} role="status" data-testid="project-status">${STATUS_TEXT[project.status.project] ?? project.status.project}</span>
      <button class="primary" type="button" onClick=${order} disabled=${project.status.project !== 'editable' || blocking.length > 0}
        aria-describedby=${blocking.length ? 'preflight' : undefined} data-testid="order">${blocking.length ? `Cannot order: ${blockingSummary(blocking)}` : 'Order'}</button>
    </header>
    <p class="notice" aria-live="polite">${notice}</p>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${building && html`<${BuildProgress} project=${project} />`}
    <${PhotoProblems} photos=${project.photos} />
    <${Preflight} preflight=${project.preflight} />
    ${
      project.cover &&
      html`<${Cover} project=${project} photoById=${photoById} editable=${editable}
        onSave=${(title, subtitle) => edit('cover texts', 'mutation ($projectId: String!, $title: String!, $subtitle: String) { setCoverTexts(projectId: $projectId, title: $title, subtitle: $subtitle) {FIELDS} }', { title, subtitle })} />`
    }
    ${selected && html`<p class="hint" role="status">Photo ${selected.slot + 1} of page ${selected.page} selected: choose a photo to swap it with, a page with room to move it to, or select it again to cancel. Drag it to move it in its frame.</p>`}
    ${selected && editable && html`<${CropTools} slot=${project.pages[selected.page - 1]?.photos[selected.slot]} at=${selected} onCrop=${setCrop} />`}
    <section aria-label="Pages" class="spreads">
      ${spreads.map(
        (spread) => html`
        <div class="spread-block" key=${spread[0].number}>
          <div class="spread">
            ${spread.map((page) => html`<${Page} key=${page.number} page=${page} project=${project} photoById=${photoById} selected=${selected} onChoose=${choose} onCrop=${editable ? setCrop : null} />`)}
          </div>
          <div class="page-tools">
            ${spread.map((page) => html`<${PageTools} key=${page.number} page=${page} pageCount=${pageCount} editable=${editable} edit=${edit} selected=${selected} onCaptions=${setCaptions} />`)}
          </div>
          <div class="spread-tools">
            <button type="button" disabled=${!editable || pageCount + 2 > project.format.maxPages}
              onClick=${() => edit(`added 2 pages after page ${spread.at(-1).number}`, 'mutation ($projectId: String!, $after: Int!) { addPages(projectId: $projectId, after: $after) {FIELDS} }', { after: spread.at(-1).number })}>
              Add 2 pages after page ${spread.at(-1).number}</button>
            <button type="button" disabled=${!editable || spread.length !== 2 || pageCount - 2 < project.format.minPages}
              onClick=${() => edit(`removed pages ${spread[0].number}–${spread.at(-1).number}`, 'mutation ($projectId: String!, $pages: [Int!]!) { removePages(projectId: $projectId, pages: $pages) {FIELDS} }', { pages: spread.map((p) => p.number) })}>
              Remove pages ${spread[0].number}–${spread.at(-1).number}</button>
          </div>
        </div>`,
      )}
    </section>
    ${pageCount === 0 && !building && html`<p class="empty">This book has no pages yet.</p>`}
  `;
}

function BuildProgress({ project }) {
  const settled = project.photos.filter((p) => p.status === 'idle' || p.status === 'failed').length;
  return html`
    <section class="progress-card" aria-label="Building your book">
      <p>${project.status.photos === 'uploading' ? 'Downloading your photos' : project.status.photos === 'analyzing' ? 'Checking your photos' : 'Laying out your pages'} — ${settled} of ${project.photos.length} photos ready</p>
      <progress max=${project.photos.length || 1} value=${settled} aria-label="Photos ready"></progress>
      <ul class="photo-strip">
        ${project.photos.map(
          (photo) => html`<li key=${photo.id} class=${`strip-photo photo-${photo.status}`}>
          ${photo.thumbnail ? html`<img src=${photo.thumbnail} alt="" />` : html`<span class="placeholder" aria-hidden="true"></span>`}
          <span class="strip-label">${photo.status === 'failed' ? 'Could not be downloaded' : photo.status === 'idle' ? 'Ready' : photo.status === 'analyzing' ? 'Checking' : 'Downloading'}</span>
        </li>`,
        )}
      </ul>
    </section>`;
}

function PhotoProblems({ photos }) {
  const failed = photos.filter((p) => p.status === 'failed');
  if (!failed.length) return null;
  return html`
    <section class="problems" aria-label="Photos that could not be used">
      <h2>${failed.length} photo${failed.length > 1 ? 's' : ''} could not be used</h2>
      <ul>${failed.map((p) => html`<li key=${p.id} class="problem">Could not be downloaded: ${p.problem?.message ?? p.problem?.code ?? 'unknown problem'}</li>`)}</ul>
    </section>`;
}

function Cover({ project, photoById, editable, onSave }) {
  const [title, setTitle] = useState(project.cover.title);
  const [subtitle, setSubtitle] = useState(project.cover.subtitle ?? '');
  useEffect(() => {
    setTitle(project.cover.title);
    setSubtitle(project.cover.subtitle ?? '');
  }, [project.cover.title, project.cover.subtitle]);
  const photo = project.cover.photoId && photoById.get(project.cover.photoId);
  return html`
    <section class="cover-row" aria-label="Cover">
      ${
        project.coverSheet
          ? html`<${CoverSpread} project=${project} photo=${photo} />`
          : html`
        <figure class="page cover" style=${{ aspectRatio: `${project.format.widthMm} / ${project.format.heightMm}` }} data-testid="cover">
          ${photo?.thumbnail && html`<img class="cover-photo" src=${photo.thumbnail} alt="Cover photo" />`}
          <figcaption class="cover-title"><strong>${project.cover.title}</strong>${project.cover.subtitle && html`<span>${project.cover.subtitle}</span>`}</figcaption>
        </figure>`
      }
      <form class="cover-form" onSubmit=${(e) => {
        e.preventDefault();
        onSave(title, subtitle);
      }}>
        <h2>Cover</h2>
        <label>Title <input name="title" value=${title} maxlength="200" required onInput=${(e) => setTitle(e.currentTarget.value)} disabled=${!editable} /></label>
        <label>Subtitle <input name="subtitle" value=${subtitle} maxlength="200" onInput=${(e) => setSubtitle(e.currentTarget.value)} disabled=${!editable} /></label>
        <button type="submit" disabled=${!editable}>Save cover</button>
      </form>
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
        aria-label=${`Cover sheet ${sheet.widthMm} × ${sheet.heightMm} mm, spine ${sheet.spineWidthMm} mm`}>
      ${photo?.thumbnail && html`<img class="spread-photo" src=${photo.thumbnail} alt="Cover photo" style=${{ left: `${(frontEdge / sheet.widthMm) * 100}%`, width: `${100 - (frontEdge / sheet.widthMm) * 100}%` }} />`}
      <div class="spread-panel spread-back" style=${at(sheet.back)} data-testid="cover-back">${textOf('backCover') && html`<p>${textOf('backCover')}</p>`}</div>
      <div class="spread-panel spread-spine" style=${at(sheet.spine)} data-testid="cover-spine">${sheet.spineText && html`<span>${spineText}</span>`}</div>
      <div class="spread-panel spread-front" style=${at(sheet.front)}>
        <figcaption class="spread-title"><strong>${project.cover.title}</strong>${project.cover.subtitle && html`<span>${project.cover.subtitle}</span>`}</figcaption>
      </div>
      <div class="spread-trim" style=${at(sheet.trim)} aria-hidden="true"></div>
    </figure>`;
}

/** What the preflight found, where it sits; blocking problems first; a run of blank pages is one line. */
function Preflight({ preflight }) {
  const shown = groupBlankPages(
    [...preflight.problems]
      .filter((p) => p.code !== 'BOOK_NOT_BUILT')
      .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'blocking' ? -1 : 1)),
  );
  if (!shown.length) return null;
  const where = (p) =>
    p.where ??
    (p.page == null
      ? 'Book'
      : p.page === 0
        ? 'Cover'
        : `Page ${p.page}${p.slot == null ? '' : `, photo ${p.slot + 1}`}`);
  return html`
    <section class="problems preflight" id="preflight" aria-label="Before you order">
      <h2>${preflight.printable ? 'Before you order: worth a look' : 'Before you order: fix these first'}</h2>
      <ul>${shown.map((p, i) => html`<li key=${i} class=${`problem problem-${p.severity}`} data-code=${p.code}><strong>${where(p)}</strong>: ${p.message}</li>`)}</ul>
    </section>`;
}

/** Consecutive BLANK_PAGE warnings (pages 10 to 23, say) as one, so the list stays readable. */
function groupBlankPages(problems) {
  const grouped = [];
  for (const problem of problems) {
    const last = grouped.at(-1);
    if (problem.code === 'BLANK_PAGE' && last?.code === 'BLANK_PAGE' && last.lastPage === problem.page - 1) {
      last.lastPage = problem.page;
      const count = last.lastPage - last.page + 1;
      last.where = `Pages ${last.page}–${last.lastPage}`;
      last.message = `these ${count} pages have no photo and no text and print blank: add photos, or choose the Blank layout where a page is meant to be`;
      continue;
    }
    grouped.push(problem.code === 'BLANK_PAGE' ? { ...problem, lastPage: problem.page } : problem);
  }
  return grouped;
}

/** The Order button's words when problems block it: the first one and how many more. */
function blockingSummary(blocking) {
  const first = blocking[0];
  const where = first.page == null ? '' : first.page === 0 ? ' on the cover' : ` on page ${first.page}`;
  const what =
    {
      NO_USABLE_PHOTO: 'no photo can be printed',
      TOO_FEW_PHOTOS: 'too few photos',
      PHOTO_FAILED: 'a photo failed',
      PHOTO_MISSING: 'a photo is missing',
      EMPTY_SLOT: 'a photo slot is empty',
      RESOLUTION_TOO_LOW: 'a photo is too small',
      PAGE_COUNT_ODD: 'odd page count',
      PAGE_COUNT_OUT_OF_RANGE: 'page count out of range',
    }[first.code] ?? first.code;
  return `${what}${where}${blocking.length > 1 ? ` (+${blocking.length - 1} more)` : ''}`;
}

/**
 * The photo in its slot exactly as print crops it: `cropRect` (PhotoSlot.cropRect) is the part of the
 * photo the slot shows, computed by the server with the print render's own code (src/domain/slot-crop.ts);
 * the image is scaled and shifted so that part fills the slot. While a drag is under way, `preview`
 * stands in for it until the server answers.
 */
function SlotPhoto({ photo, rect }) {
  if (!photo?.thumbnail) return html`<span class="placeholder">Photo not available</span>`;
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
    <label for=${id}>Zoom photo ${at.slot + 1} of page ${at.page}</label>
    <input id=${id} type="range" min="1" max="5" step="0.1" value=${zoom} data-testid="zoom"
      onInput=${(e) => setZoom(Number(e.currentTarget.value))}
      onChange=${(e) => onCrop(at, { x: focus.x, y: focus.y, zoom: Number(e.currentTarget.value) })} />
    <output for=${id}>${Math.round(zoom * 100)}%</output>
    ${[
      ['←', 'left', -0.05, 0],
      ['→', 'right', 0.05, 0],
      ['↑', 'up', 0, -0.05],
      ['↓', 'down', 0, 0.05],
    ].map(
      ([
        arrow,
        way,
        dx,
        dy,
      ]) => html`<button type="button" key=${way} aria-label=${`Show more of the photo to the ${way === 'up' ? 'top' : way === 'down' ? 'bottom' : way}`}
        onClick=${() => onCrop(at, { x: clampUnit(focus.x + dx), y: clampUnit(focus.y + dy), zoom: focus.zoom }, `moved photo ${at.slot + 1} in its frame on page ${at.page}`)}>${arrow}</button>`,
    )}
    <button type="button" disabled=${!slot.crop} onClick=${() => onCrop(at, null, `automatic crop for photo ${at.slot + 1} on page ${at.page}`)}>Reset crop</button>
  </div>`;
}

const clampUnit = (value) => Math.min(1, Math.max(0, value));

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

function Page({ page, project, photoById, selected, onChoose, onCrop }) {
  const [preview, setPreview] = useState(null);
  const drag = useRef(null);
  /** Dragging the selected photo pans it in its frame: the focus point moves against the pointer. */
  function pointerDown(e, index, slot, photo) {
    const isSelected = selected && selected.page === page.number && selected.slot === index;
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
      onCrop(
        { page: page.number, slot: d.index },
        d.crop,
        `moved photo ${d.index + 1} in its frame on page ${page.number}`,
      );
      lastDrag.current = Date.now();
    }
    setPreview(null);
  }
  const lastDrag = useRef(0);
  const ratio = `${project.format.widthMm} / ${project.format.heightMm}`;
  const warnings = project.printWarnings.filter((w) => w.page === String(page.number));
  const blockers = project.preflight.problems.filter((p) => p.severity === 'blocking' && p.page === page.number);
  const blank = project.preflight.problems.find((p) => p.code === 'BLANK_PAGE' && p.page === page.number);
  return html`
    <figure class="page-wrap" data-testid=${`page-${page.number}`}>
      <div class="page" style=${{ aspectRatio: ratio }}>
        ${page.photos.map((slot, index) => {
          const photo = photoById.get(slot.photoId);
          const warning = warnings.find((w) => w.photoId === slot.photoId);
          const blocker = blockers.find((p) => p.slot === index);
          const isSelected = selected && selected.page === page.number && selected.slot === index;
          return html`<button type="button" key=${index} class=${`slot${isSelected ? ' selected' : ''}`}
              style=${{ left: `${slot.x * 100}%`, top: `${slot.y * 100}%`, width: `${slot.width * 100}%`, height: `${slot.height * 100}%` }}
              aria-pressed=${isSelected ? 'true' : 'false'}
              aria-label=${`Photo ${index + 1} on page ${page.number}${blocker ? `, cannot be printed: ${blocker.message}` : warning ? `, ${warning.message}` : ''}. Select to swap`}
              data-photo-id=${slot.photoId}
              onPointerDown=${(e) => pointerDown(e, index, slot, photo)} onPointerMove=${pointerMove} onPointerUp=${pointerUp}
              onClick=${() => {
                // The click that ends a drag is not a choice.
                if (Date.now() - lastDrag.current < 300) return;
                onChoose({ page: page.number, slot: index });
              }}>
            <${SlotPhoto} photo=${photo} rect=${preview?.index === index ? preview.rect : slot.cropRect} />
            ${blocker && html`<span class="badge block" title=${blocker.message}>Cannot print</span>`}
            ${!blocker && warning && html`<span class=${`badge ${warning.message.startsWith('low') ? 'warn' : 'soft'}`} title=${warning.message}>${warning.message.startsWith('low') ? 'Too small for print' : 'May print soft'} · ${warning.effectiveDpi} DPI</span>`}
          </button>`;
        })}
        ${page.texts.map((t) => html`<p class="page-text" key=${t.assetId}>${t.text}</p>`)}
        <${Captions} page=${page} format=${project.format} />
        ${page.photos.length === 0 && html`<span class="blank-note">Blank page</span>`}
        ${blank && html`<span class="badge warn page-problem" title=${blank.message} data-testid=${`blank-warning-${page.number}`}>Prints blank</span>`}
        ${blockers.filter((p) => p.slot == null).map((p) => html`<span class="badge block page-problem" key=${p.code} title=${p.message}>Cannot print</span>`)}
      </div>
      <figcaption class="page-number">Page ${page.number}</figcaption>
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
    <summary>Text on page ${page.number}</summary>
    <form onSubmit=${(e) => {
      e.preventDefault();
      if (!text.trim()) return;
      const added = { text, font, sizePt: size, x: 0.1, y: Math.min(0.85, 0.1 + captions.length * 0.1), width: 0.8 };
      onCaptions(page.number, [...captions, added], `text on page ${page.number}`);
      setText('');
    }}>
      <label for=${`${id}-text`}>Text</label>
      <textarea id=${`${id}-text`} maxlength="500" rows="2" value=${text} disabled=${!editable} onInput=${(e) => setText(e.currentTarget.value)} data-testid=${`caption-text-${page.number}`}></textarea>
      <label for=${`${id}-font`}>Font</label>
      <select id=${`${id}-font`} value=${font} disabled=${!editable} onChange=${(e) => setFont(e.currentTarget.value)}>
        ${CAPTION_FONTS.map((f) => html`<option value=${f}>${f}</option>`)}
      </select>
      <label for=${`${id}-size`}>Size (pt)</label>
      <input id=${`${id}-size`} type="number" min="6" max="72" value=${size} disabled=${!editable} onInput=${(e) => setSize(Number(e.currentTarget.value))} />
      <button type="submit" disabled=${!editable || !text.trim()} data-testid=${`caption-add-${page.number}`}>Add text</button>
      ${captions.length > 0 && html`<button type="button" disabled=${!editable} onClick=${() => onCaptions(page.number, [], `removed the text on page ${page.number}`)}>Remove all text</button>`}
    </form>
  </details>`;
}

function PageTools({ page, pageCount, editable, edit, selected, onCaptions }) {
  const room = SLOTS_OF[page.layout === 'blank' ? 'full' : page.layout] - page.photos.length;
  const move = (to) =>
    edit(
      `moved page ${page.number} to ${to}`,
      'mutation ($projectId: String!, $from: Int!, $to: Int!) { movePage(projectId: $projectId, from: $from, to: $to) {FIELDS} }',
      { from: page.number, to },
    );
  const id = `layout-${page.number}`;
  return html`<div class="page-tool-cell">
    <div class="tools">
      <button type="button" aria-label=${`Move page ${page.number} left`} disabled=${!editable || page.number === 1} onClick=${() => move(page.number - 1)}>◀</button>
      <label for=${id} class="visually-hidden">Layout of page ${page.number}</label>
      <select id=${id} disabled=${!editable} value=${page.layout}
        onChange=${(e) => edit(`layout of page ${page.number}`, 'mutation ($projectId: String!, $page: Int!, $layout: String!) { setPageLayout(projectId: $projectId, page: $page, layout: $layout) {FIELDS} }', { page: page.number, layout: e.currentTarget.value })}>
        ${LAYOUTS.map(([value, label]) => html`<option value=${value} disabled=${SLOTS_OF[value] < page.photos.length}>${label}</option>`)}
      </select>
      <button type="button" aria-label=${`Move page ${page.number} right`} disabled=${!editable || page.number === pageCount} onClick=${() => move(page.number + 1)}>▶</button>
    </div>
    ${
      selected &&
      selected.page !== page.number &&
      room > 0 &&
      html`<button type="button" class="move-here"
        onClick=${() => edit(`moved a photo from page ${selected.page} to page ${page.number}`, 'mutation ($projectId: String!, $from: SlotRefInput!, $toPage: Int!) { movePhoto(projectId: $projectId, from: $from, toPage: $toPage) {FIELDS} }', { from: selected, toPage: page.number })}>
        Move the selected photo to page ${page.number}</button>`
    }
    <${CaptionForm} page=${page} editable=${editable} onCaptions=${onCaptions} />
  </div>`;
}

const root = document.getElementById('app');
root.textContent = ''; // the server-sent "loading" line
render(html`<${App} />`, root);
