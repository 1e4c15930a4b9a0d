import type { BookPhoto } from './book-photo';

/** A pause this long between two shots starts a new event (a new day, the next outing). */
const EVENT_GAP_MS = 2 * 60 * 60 * 1000;
/** A move this far between two shots (both with GPS) starts a new event even without a pause (the next town). */
const EVENT_DISTANCE_KM = 25;

/**
 * Splits photos already in story order (dated by capture time, then undated in the client's order)
 * into events, the way photo apps' memories do: a new event where the capture times pause for
 * EVENT_GAP_MS or more, or where two consecutive photos with GPS lie EVENT_DISTANCE_KM or more
 * apart. Undated photos have no time to split by: together they are the last event.
 */
export function splitIntoEvents(photos: BookPhoto[]): BookPhoto[][] {
  const events: BookPhoto[][] = [];
  let previous: BookPhoto | undefined;
  for (const photo of photos) {
    const current = events.at(-1);
    if (!current || !previous || startsEvent(previous, photo)) events.push([photo]);
    else current.push(photo);
    previous = photo;
  }
  return events;
}

function startsEvent(previous: BookPhoto, photo: BookPhoto): boolean {
  if (!previous.capturedAt || !photo.capturedAt) return Boolean(previous.capturedAt) !== Boolean(photo.capturedAt);
  if (photo.capturedAt.getTime() - previous.capturedAt.getTime() >= EVENT_GAP_MS) return true;
  return distanceKm(previous, photo) >= EVENT_DISTANCE_KM;
}

/** Great-circle distance (haversine); 0 unless both photos have GPS. */
function distanceKm(a: BookPhoto, b: BookPhoto): number {
  if (a.latitude == null || a.longitude == null || b.latitude == null || b.longitude == null) return 0;
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}
