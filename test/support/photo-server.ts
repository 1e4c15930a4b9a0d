import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface PhotoSpec {
  width: number;
  height: number;
  /** EXIF orientation tag to write (6 = rotate 90° clockwise to display). */
  orientation?: number;
  /** EXIF DateTimeOriginal, e.g. `2024:06:01 10:00:00`. */
  takenAt?: string;
  colour?: string;
  format?: 'jpeg' | 'png';
  /** A strong blue colour cast, as in shade or under a wrong white balance. */
  blueCast?: boolean;
}

/** A real photo: a gradient with shapes, so it has detail to measure, made by sharp. */
export async function makePhoto(spec: PhotoSpec): Promise<Buffer> {
  const { width, height } = spec;
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${spec.colour ?? '#3a7bd5'}"/><stop offset="1" stop-color="#f4d35e"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      ${Array.from({ length: 12 }, (_, i) => `<circle cx="${(i * 97) % width}" cy="${(i * 53) % height}" r="${20 + (i % 5) * 8}" fill="#${(i * 0x13579b).toString(16).padStart(6, '0').slice(-6)}"/>`).join('')}
    </svg>`,
  );
  let image = sharp(svg);
  if (spec.blueCast) image = sharp(await image.linear([0.55, 0.65, 1.2], [0, 5, 40]).png().toBuffer());
  if (spec.format === 'png') return image.png().toBuffer();
  image = image.jpeg({ quality: 90 });
  if (spec.orientation) image = image.withMetadata({ orientation: spec.orientation });
  if (spec.takenAt) image = image.withExifMerge({ IFD2: { DateTimeOriginal: spec.takenAt } });
  return image.toBuffer();
}

export interface PhotoServer {
  url(path: string): string;
  /** How many times each path was requested. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** Serves photos on 127.0.0.1 for the outbound client to fetch; unknown paths are 404. */
export interface PhotoRoute {
  body: Buffer;
  type?: string;
  /** The answer waits for this (a photo host that is slow on one photo, released by the test). */
  held?: Promise<void>;
}

export async function startPhotoServer(routes: Record<string, PhotoRoute>): Promise<PhotoServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const answer = () =>
      response
        .writeHead(200, { 'content-type': route.type ?? 'image/jpeg', 'content-length': route.body.length })
        .end(route.body);
    if (route.held) void route.held.then(answer);
    else answer();
  });
  // Longer than any client keeps an idle connection: with Node's 5 s a client on a loaded machine can send
  // a request down a connection the server is closing that moment (ECONNRESET).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
