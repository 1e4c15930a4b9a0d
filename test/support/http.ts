import type { IssuedCredentials } from '../../src/services/clients/client-admin';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Real HTTP against the running service; parses JSON and problem+json bodies. */
export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    body: (type.includes('json') && text ? JSON.parse(text) : text) as T,
  };
}

export const post = <T = any>(baseUrl: string, path: string, body: unknown, headers?: Record<string, string>) =>
  request<T>(baseUrl, 'POST', path, { body, headers });

/** The PWA family's authentication header. */
export function serviceHeader(
  credentials: Pick<IssuedCredentials, 'accessKey' | 'accessSecret'>,
): Record<string, string> {
  return { 'x-service': JSON.stringify({ accessKey: credentials.accessKey, accessSecret: credentials.accessSecret }) };
}
