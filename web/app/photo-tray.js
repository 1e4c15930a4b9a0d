import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import { change, t } from './i18n.js';
import { AddPhotos, useUploads } from './photo-uploads.js';

/*
 * The photo tray: every photo of the project, the ones in the book and the ones not (clearly marked),
 * those still uploading or being checked, and those that failed with why. A photo goes into the book
 * by dragging it onto a slot (its photo goes back to the tray) or a page, or, by keyboard or touch,
 * by choosing it here and then a slot, or a page from the list. Each is one placePhoto edit
 * (docs/api.md, Editor), undoable like every edit.
 */

// Its own stylesheet, so the editor's style.css stays as it is.
if (!document.querySelector('link[data-photo-tray]')) {
  const sheet = Object.assign(document.createElement('link'), {
    rel: 'stylesheet',
    href: new URL('./photo-tray.css', import.meta.url).toString(),
  });
  sheet.dataset.photoTray = '';
  document.head.append(sheet);
}

/** The drag's data type: a photo of this tray, not a file. */
const TRAY_TYPE = 'application/x-photobook-photo';
const SLOTS_OF = { full: 1, 'two-side-by-side': 2, 'two-stacked': 2, 'grid-4': 4, blank: 0 };

const PLACE_IN_SLOT =
  'mutation ($projectId: String!, $photoId: String!, $slot: SlotRefInput) { placePhoto(projectId: $projectId, photoId: $photoId, slot: $slot) {FIELDS} }';
const PLACE_ON_PAGE =
  'mutation ($projectId: String!, $photoId: String!, $toPage: Int) { placePhoto(projectId: $projectId, photoId: $photoId, toPage: $toPage) {FIELDS} }';
const UNPLACE =
  'mutation ($projectId: String!, $slot: SlotRefInput!) { unplacePhoto(projectId: $projectId, slot: $slot) {FIELDS} }';

/** Puts a tray photo into a slot ({ slot }) or onto a page ({ toPage }) through the editor's `edit`. */
export function placeFromTray(edit, photoId, target) {
  return target.slot
    ? edit(change('tray.placedInSlot', { slot: target.slot.slot + 1, page: target.slot.page }), PLACE_IN_SLOT, {
        photoId,
        slot: target.slot,
      })
    : edit(change('tray.placedOnPage', { page: target.toPage }), PLACE_ON_PAGE, { photoId, toPage: target.toPage });
}

/** Where each placed photo is: photo id → page number. */
function placesOf(project) {
  const places = new Map();
  for (const page of project.pages) for (const slot of page.photos) places.set(slot.photoId, page.number);
  return places;
}

/**
 * "Add photos" and the tray, below the checks. `picked` is the tray photo chosen for the next slot
 * (the editor's slot click places it); `selected` the slot the editor has selected, which can be taken
 * out of the book from here. `onChanged` reloads the project.
 */
export function PhotoPanel({ projectId, editorKey, project, editable, edit, picked, onPick, selected, onChanged }) {
  const uploads = useUploads({ projectId, editorKey, onFinished: onChanged });
  const places = placesOf(project);
  const pending = project.photos.some((p) => p.status === 'uploading' || p.status === 'analyzing');
  const [toPage, setToPage] = useState('');

  // Uploaded photos are checked and placed by the server: look again until they are.
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setInterval(onChanged, 2000);
    return () => clearInterval(timer);
  }, [pending]);

  // Dropping a tray photo on a slot or a page of the editor (editor.js marks them data-page / data-slot).
  useEffect(() => {
    if (!editable) return undefined;
    const fromTray = (e) => [...(e.dataTransfer?.types ?? [])].includes(TRAY_TYPE);
    const targetOf = (e) => {
      const slot = e.target.closest?.('[data-slot]');
      if (slot) return { slot: { page: Number(slot.dataset.page), slot: Number(slot.dataset.slot) } };
      const page = e.target.closest?.('[data-page]');
      return page ? { toPage: Number(page.dataset.page) } : null;
    };
    const over = (e) => {
      if (fromTray(e) && targetOf(e)) e.preventDefault();
    };
    const drop = (e) => {
      const target = fromTray(e) && targetOf(e);
      if (!target) return;
      e.preventDefault();
      onPick(null);
      placeFromTray(edit, e.dataTransfer.getData(TRAY_TYPE), target);
    };
    document.addEventListener('dragover', over);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('drop', drop);
    };
  }, [editable, edit]);

  const pagesWithRoom = project.pages.filter(
    (page) => SLOTS_OF[page.layout === 'blank' ? 'full' : page.layout] > page.photos.length,
  );
  const unused = project.photos.filter((p) => p.status === 'idle' && !places.has(p.id)).length;
  const selectedSlot = selected && project.pages[selected.page - 1]?.photos[selected.slot];

  return html`<section class="photo-panel" aria-label=${t('tray.title')}>
    <${AddPhotos} uploads=${uploads} editable=${editable} />
    <section class="tray" aria-labelledby="tray-title">
      <h2 id="tray-title">${t('tray.title')}</h2>
      <p class="sub">${t('tray.summary', { count: project.photos.length, unused })} ${t('tray.howTo')}</p>
      <ul class="tray-photos" data-testid="tray">
        ${project.photos.map((photo) => {
          const page = places.get(photo.id);
          const ready = photo.status === 'idle';
          const label = photoLabel(photo, page);
          // A photo the smartbook left out (a copy, a burst frame, blurred, badly exposed) says why, and goes back like any unused one.
          const leftOut = ready && !page && photo.curation?.kept === false;
          const kind = !ready ? photo.status : page ? 'used' : leftOut ? 'left-out' : 'unused';
          return html`<li key=${photo.id} class=${`tray-photo tray-${kind}`} data-testid="tray-photo" data-photo-id=${photo.id} data-kind=${kind}>
            ${
              ready && editable
                ? html`<button type="button" draggable="true" aria-pressed=${picked === photo.id ? 'true' : 'false'}
                    aria-label=${`${label}. ${t('tray.pick')}`}
                    onDragStart=${(e) => {
                      e.dataTransfer.setData(TRAY_TYPE, photo.id);
                      e.dataTransfer.effectAllowed = 'move';
                    }}
                    onClick=${() => onPick(picked === photo.id ? null : photo.id)}>
                    ${thumb(photo)}</button>`
                : html`<div class="tray-thumb" role="img" aria-label=${label}>${thumb(photo)}</div>`
            }
            <span class="tray-label">${label}</span>
          </li>`;
        })}
      </ul>
      ${
        picked &&
        html`<div class="tray-pick" role="status" data-testid="tray-picked">
          <p>${t('tray.picked')}</p>
          <label for="tray-to-page">${t('tray.orPage')}</label>
          <select id="tray-to-page" value=${toPage} onChange=${(e) => setToPage(e.currentTarget.value)}>
            <option value="">${t('tray.choosePage')}</option>
            ${pagesWithRoom.map((page) => html`<option value=${page.number}>${t('tray.page', { page: page.number })}</option>`)}
          </select>
          <button type="button" disabled=${!toPage || !editable}
            onClick=${() => {
              onPick(null);
              placeFromTray(edit, picked, { toPage: Number(toPage) });
            }}>${t('tray.addToPage')}</button>
          <button type="button" onClick=${() => onPick(null)}>${t('tray.cancel')}</button>
        </div>`
      }
      ${
        selectedSlot &&
        editable &&
        html`<button type="button" class="tray-unplace" data-testid="unplace"
          onClick=${() => edit(change('tray.unplaced', { page: selected.page }), UNPLACE, { slot: selected })}>
          ${t('tray.unplace', { slot: selected.slot + 1, page: selected.page })}</button>`
      }
    </section>
  </section>`;
}

function thumb(photo) {
  return photo.thumbnail
    ? html`<img src=${photo.thumbnail} alt="" draggable="false" />`
    : html`<span class="placeholder" aria-hidden="true"></span>`;
}

function photoLabel(photo, page) {
  switch (photo.status) {
    case 'uploading':
      return t('tray.uploading');
    case 'analyzing':
      return t('tray.analyzing');
    case 'failed':
      return t('tray.failed', { reason: photo.problem?.message ?? photo.problem?.code ?? '?' });
    default:
      if (page) return t('tray.used', { page });
      return photo.curation?.kept === false ? t(`tray.leftOut.${photo.curation.reason}`) : t('tray.unused');
  }
}
