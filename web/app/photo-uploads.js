import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from 'htm/preact';
import 'tus-js-client';
import { formatNumber, t } from './i18n.js';

/*
 * "Add photos": the customer's own photos, from the file picker, dropped on the page or pasted, sent
 * over tus 1.0 to /v2/uploads (docs/api.md, Uploads) with the editor link's credential. tus-js-client
 * keeps each upload's URL in localStorage (its fingerprint: name, type, size, date of the file), so an
 * upload cut by a lost network is retried from the server's offset, and one left by a reload is listed
 * here and continues where it stopped when the customer picks the same file again. The server decodes
 * HEIC, so iPhone photos go as they are. A finished upload's id is its photo's id.
 */

/** tus-js-client's browser build (UMD, served from node_modules through the import map) defines `window.tus`. */
const tus = window.tus;

/**
 * One PATCH at most: 4 MiB takes about 34 s at 1 Mbit/s, a slow phone uplink, well within the
 * service's REQUEST_TIMEOUT (60 s by default), after which a request is cut.
 */
export const CHUNK_SIZE = 4 * 1024 * 1024;
/** After a lost connection: at once, then after 1, 3, 5 and 10 seconds, each from the server's offset. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];
/** What the picker offers: images, named HEIC/HEIF too (some browsers give them no type). */
export const ACCEPT = 'image/*,.heic,.heif,.jpg,.jpeg,.png,.webp,.avif,.tif,.tiff';
const IMAGE_NAME = /\.(heic|heif|jpe?g|png|webp|avif|tiff?|gif)$/i;

const isImage = (file) => file.type.startsWith('image/') || IMAGE_NAME.test(file.name);
const mb = (bytes) => formatNumber(bytes / 1e6, { maximumFractionDigits: 1 });

/** The server's words for a refused request: its problem detail (413, 422, 429, 409...), else the status. */
function reasonOf(error) {
  const response = error?.originalResponse;
  if (!response) return t('uploads.networkLost');
  let detail;
  try {
    detail = JSON.parse(response.getBody() || '{}').detail;
  } catch {
    detail = undefined;
  }
  return t('uploads.refused', { status: response.getStatus(), reason: detail || response.getBody() || '' });
}

/** Retry what a lost connection or a busy server cut; a refusal (4xx but 423) would only be refused again. */
function shouldRetry(error) {
  const status = error?.originalResponse?.getStatus?.() ?? 0;
  return status === 0 || status === 423 || status >= 500;
}

/** The uploads of this project that a reload left unfinished (kept by tus-js-client in localStorage). */
async function unfinishedUploads(projectId) {
  const stored = await tus.defaultOptions.urlStorage.findAllUploads();
  return stored.filter((entry) => entry.metadata?.projectId === projectId && entry.uploadUrl);
}

/**
 * The uploads under way and the ones a reload left, and `add(files)` to send more. `onFinished` hears
 * each photo the server took (its id), so the editor shows it at once.
 */
export function useUploads({ projectId, editorKey, onFinished }) {
  const [uploads, setUploads] = useState([]);
  const [left, setLeft] = useState([]);
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const endpoint = new URL('./v2/uploads', location.href).toString();
  const headers = { 'X-Editor-Project': projectId, 'X-Editor-Key': editorKey };

  const refreshLeft = () =>
    unfinishedUploads(projectId)
      .then(setLeft)
      .catch(() => setLeft([]));
  useEffect(() => {
    refreshLeft();
  }, []);

  const update = (key, fields) =>
    setUploads((shown) => shown.map((entry) => (entry.key === key ? { ...entry, ...fields } : entry)));

  function add(fileList) {
    for (const file of fileList) {
      const key = `${file.name}-${file.size}-${file.lastModified}-${Math.random().toString(36).slice(2)}`;
      if (!isImage(file)) {
        setUploads((shown) => [
          ...shown,
          { key, name: file.name, size: file.size, sent: 0, state: 'failed', reason: t('uploads.notAnImage') },
        ]);
        continue;
      }
      setUploads((shown) => [...shown, { key, name: file.name, size: file.size, sent: 0, state: 'starting' }]);
      const upload = new tus.Upload(file, {
        endpoint,
        headers,
        chunkSize: CHUNK_SIZE,
        retryDelays: RETRY_DELAYS,
        metadata: { projectId, filename: file.name, filetype: file.type || 'application/octet-stream' },
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onShouldRetry: (error) => {
          const retry = shouldRetry(error);
          if (retry) update(key, { state: 'retrying', reason: t('uploads.networkLost') });
          return retry;
        },
        onProgress: (sent, total) => update(key, { sent, size: total, state: 'uploading', reason: undefined }),
        onError: (error) => {
          update(key, { state: 'failed', reason: reasonOf(error) });
          refreshLeft();
        },
        onSuccess: () => {
          update(key, { state: 'done', sent: file.size });
          refreshLeft();
          const photoId = upload.url?.split('/').pop();
          finished.current?.(photoId);
        },
      });
      upload
        .findPreviousUploads()
        .then((previous) => {
          // The same file picked again after a reload: continue the upload the server already has.
          if (previous.length) {
            upload.resumeFromPreviousUpload(previous[0]);
            update(key, { resumed: true });
          }
          upload.start();
        })
        .catch((error) => update(key, { state: 'failed', reason: reasonOf(error) }));
    }
  }

  /** Gives up an upload a reload left: the server removes its bytes, the browser forgets it. */
  async function forget(entry) {
    await tus.Upload.terminate(entry.uploadUrl, { headers }).catch(() => undefined);
    await tus.defaultOptions.urlStorage.removeUpload(entry.urlStorageKey);
    refreshLeft();
  }

  return {
    uploads,
    left: left.filter((entry) => !uploads.some((u) => u.state !== 'failed' && sameFile(u, entry))),
    add,
    forget,
  };
}

const sameFile = (upload, entry) => upload.name === entry.metadata?.filename && upload.size === entry.size;

/**
 * The "Add photos" panel: a file picker (HEIC too), one progress bar per file with the server's
 * words when it refuses one, and the uploads a reload left. Files dropped anywhere on the page or
 * pasted are added too.
 */
export function AddPhotos({ uploads: state, editable }) {
  const { uploads, left, add, forget } = state;
  const input = useRef(null);
  const canAdd = useRef(editable);
  canAdd.current = editable;
  // Registered for the page's life: a file dropped while an edit is saving must not open in the tab
  // in place of the editor; it is added once the book can take it, else left alone.
  useEffect(() => {
    const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const over = (e) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const drop = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (canAdd.current) add([...e.dataTransfer.files]);
    };
    const paste = (e) => {
      const files = [...(e.clipboardData?.files ?? [])];
      if (!files.length || !canAdd.current || e.target.closest?.('input, textarea')) return;
      e.preventDefault();
      add(files);
    };
    document.addEventListener('dragover', over);
    document.addEventListener('drop', drop);
    document.addEventListener('paste', paste);
    return () => {
      document.removeEventListener('dragover', over);
      document.removeEventListener('drop', drop);
      document.removeEventListener('paste', paste);
    };
  }, []);

  return html`<section class="add-photos" aria-labelledby="add-photos-title">
    <h2 id="add-photos-title">${t('uploads.title')}</h2>
    <p class="sub">${t('uploads.hint')}</p>
    <label class="file-button">
      <span>${t('uploads.choose')}</span>
      <input ref=${input} type="file" multiple accept=${ACCEPT} disabled=${!editable} data-testid="photo-files"
        onChange=${(e) => {
          add([...e.currentTarget.files]);
          e.currentTarget.value = '';
        }} />
    </label>
    ${
      left.length > 0 &&
      html`<div class="uploads-left" role="region" aria-label=${t('uploads.leftTitle')} data-testid="uploads-left">
        <h3>${t('uploads.leftTitle')}</h3>
        <p class="sub">${t('uploads.leftHint')}</p>
        <ul>${left.map(
          (entry) => html`<li key=${entry.urlStorageKey} data-testid="upload-left">
            <span>${entry.metadata?.filename ?? '?'} · ${t('uploads.megabytes', { size: mb(entry.size ?? 0) })}</span>
            <button type="button" onClick=${() => forget(entry)}>${t('uploads.forget')}</button>
          </li>`,
        )}</ul>
      </div>`
    }
    ${
      uploads.length > 0 &&
      html`<ul class="upload-list" data-testid="upload-list">${uploads.map((upload) => {
        const id = `upload-${upload.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
        return html`<li key=${upload.key} class=${`upload upload-${upload.state}`} data-testid="upload" data-state=${upload.state}>
          <label for=${id}>${upload.name}</label>
          <progress id=${id} max=${upload.size || 1} value=${upload.sent}></progress>
          <span class="upload-state" role=${upload.state === 'failed' ? 'alert' : undefined}>${stateText(upload)}</span>
        </li>`;
      })}</ul>`
    }
  </section>`;
}

function stateText(upload) {
  const progress = { sent: mb(upload.sent), size: mb(upload.size) };
  switch (upload.state) {
    case 'done':
      return t('uploads.done');
    case 'failed':
      return upload.reason;
    case 'retrying':
      return t('uploads.retrying', progress);
    case 'starting':
      return t('uploads.starting');
    default:
      return t(upload.resumed ? 'uploads.resuming' : 'uploads.progress', progress);
  }
}
