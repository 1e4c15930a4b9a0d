/** A shop's credentials for one environment (`dev` or `prod`), as the operator issued them. */
export interface ClientCredentials {
  accessKey: string;
  accessSecret: string;
}

/** An editor link's credentials: the project it opens and its key (docs/api.md, Editor URL). */
export interface EditorCredentials {
  editorProject: string;
  editorKey: string;
}

export type PhotobookCredentials = ClientCredentials | EditorCredentials;

/** The headers that authenticate REST and GraphQL-over-HTTP requests (docs/api.md, Authentication). */
export function credentialHeaders(credentials: PhotobookCredentials): Record<string, string> {
  if ('accessKey' in credentials) {
    return {
      'X-Service': JSON.stringify({ accessKey: credentials.accessKey, accessSecret: credentials.accessSecret }),
    };
  }
  return { 'X-Editor-Project': credentials.editorProject, 'X-Editor-Key': credentials.editorKey };
}

/** graphql-ws's `connection_init` payload: the same credentials, under the same names. */
export function connectionInitPayload(credentials: PhotobookCredentials): Record<string, string> {
  if ('accessKey' in credentials) return { accessKey: credentials.accessKey, accessSecret: credentials.accessSecret };
  return { editorProject: credentials.editorProject, editorKey: credentials.editorKey };
}
