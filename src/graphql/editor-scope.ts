import type { MiddlewareFn } from 'type-graphql';
import { NotFoundError, UnauthenticatedError } from '../domain/errors';
import type { GraphqlContext } from './context';

/** The root fields an editor session may use, each aimed at its own project by this argument. */
const EDITOR_FIELDS: Record<string, 'id' | 'projectId'> = {
  project: 'id',
  projectStatusChanged: 'projectId',
  movePage: 'projectId',
  swapPhotos: 'projectId',
  movePhoto: 'projectId',
  setPageLayout: 'projectId',
  setCoverTexts: 'projectId',
  addPages: 'projectId',
  removePages: 'projectId',
};

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * An editor session (opened by the project id of an editor link, never by a client's secret) reaches
 * one project: any other root field is refused as unauthenticated, and another project id is
 * "not found" like a foreign one.
 */
export const editorScope: MiddlewareFn<GraphqlContext> = async ({ context, info, args }, next) => {
  const scope = context.ctx.projectScope;
  if (scope && ROOT_TYPES.has(info.parentType.name)) {
    const argument = EDITOR_FIELDS[info.fieldName];
    if (!argument) throw new UnauthenticatedError(`${info.fieldName} needs the client's credentials (X-Service); an editor session reaches its own project only`);
    const id = args[argument];
    if (id !== scope) throw new NotFoundError('project', String(id ?? ''), argument);
  }
  return next();
};
