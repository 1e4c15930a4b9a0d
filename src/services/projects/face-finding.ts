import type { Logger } from 'pino';
import type { FaceBox } from '../../domain/face-box';
import type { ImageSource } from '../../imaging/decode';
import { detectFaces } from '../../imaging/faces/face-detector';

/** Finds the faces in a photo (imaging/faces/face-detector.ts in the service; another in a test). */
export type FaceDetector = (photo: ImageSource) => Promise<FaceBox[]>;

/**
 * A detection that has not answered by then is given up: a photo must never hold its build back.
 * The detector takes some 100 ms on a thumbnail, its first load some 50 ms more.
 */
const DETECTION_TIMEOUT_MS = 30_000;
/** Distinct reasons logged per process; past them a failure is logged at debug level only. */
const MAX_REASONS_LOGGED = 5;

/**
 * Faces for the automatic crop, or null when detection did not run: a detector that throws (an
 * image it cannot read, its WebAssembly or weights that would not load) or does not answer in
 * DETECTION_TIMEOUT_MS leaves the photo with "faces unknown", cropped as a photo without faces
 * (domain/slot-crop.ts), and never fails or stalls the photo or its build. `[]` says the detector
 * ran and found none. Each distinct reason is logged once per process (a detector that cannot load
 * fails for every photo: one line says so, not one per photo).
 */
export class FaceFinding {
  private readonly reported = new Set<string>();

  constructor(
    private readonly log: Logger,
    private readonly detect: FaceDetector = detectFaces,
    private readonly timeoutMs = DETECTION_TIMEOUT_MS,
  ) {}

  async facesOf(photoId: string, photo: ImageSource): Promise<FaceBox[] | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`face detection gave no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([this.detect(photo), timeout]);
    } catch (error) {
      this.report(photoId, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private report(photoId: string, reason: string): void {
    if (this.reported.has(reason) || this.reported.size >= MAX_REASONS_LOGGED) {
      this.log.debug({ photoId, reason }, 'face detection did not run; faces unknown');
      return;
    }
    this.reported.add(reason);
    this.log.warn(
      { photoId, reason },
      'face detection did not run; photos it fails on get the crop of a photo without faces (logged once per reason)',
    );
  }
}
