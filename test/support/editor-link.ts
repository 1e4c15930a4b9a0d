import { post } from './http';

/** What an editor link carries to open its project: `id` and `editorKey` (docs/api.md, Editor URL). */
export interface EditorCredentials {
  projectId: string;
  editorKey: string;
}

export function editorCredentialsOf(link: string): EditorCredentials {
  const query = new URL(link).searchParams;
  return { projectId: query.get('id')!, editorKey: query.get('editorKey')! };
}

/** As the editor page sends them over HTTP. */
export function editorHeaders({ projectId, editorKey }: EditorCredentials): Record<string, string> {
  return { 'x-editor-project': projectId, 'x-editor-key': editorKey };
}

/** As the editor page sends them in graphql-ws's `connection_init`. */
export function editorConnectionParams({ projectId, editorKey }: EditorCredentials): Record<string, string> {
  return { editorProject: projectId, editorKey };
}

/** The project's current link, as its shop reads it (GraphQL `project(id) { link }`). */
export async function currentEditorLink(
  baseUrl: string,
  auth: Record<string, string>,
  projectId: string,
): Promise<string> {
  const answer = await post(
    baseUrl,
    '/graphql',
    { query: 'query ($id: String!) { project(id: $id) { link } }', variables: { id: projectId } },
    auth,
  );
  const link = answer.body.data?.project?.link;
  if (typeof link !== 'string') throw new Error(`no link for ${projectId}: ${JSON.stringify(answer.body)}`);
  return link;
}

/** The project's current credentials, read as its shop reads its link. */
export async function editorCredentialsFor(
  baseUrl: string,
  auth: Record<string, string>,
  projectId: string,
): Promise<EditorCredentials> {
  return editorCredentialsOf(await currentEditorLink(baseUrl, auth, projectId));
}
