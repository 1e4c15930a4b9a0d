import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { NotFoundError, UnauthenticatedError } from '../domain/errors';
import type { GraphqlContext } from './context';

/** The root fields an editor session may use, each aimed at its own project by this argument. */
const EDITOR_FIELDS: Record<string, 'id' | 'projectId'> = {
  project: 'id',
  projectStatusChanged: 'projectId',
  movePage: 'projectId',
  swapPhotos: 'projectId',
  movePhoto: 'projectId',
  placePhoto: 'projectId',
  unplacePhoto: 'projectId',
  setPageLayout: 'projectId',
  setCoverTexts: 'projectId',
  addPages: 'projectId',
  removePages: 'projectId',
  setSlotCrop: 'projectId',
  setPageCaptions: 'projectId',
  undo: 'projectId',
  redo: 'projectId',
  bookRevised: 'projectId',
};

/** Throws unless the session may use root field `fieldName` with these arguments; a client's credentials may use every field. */
function checkEditorScope(fieldName: string, args: Record<string, unknown>, context: GraphqlContext): void {
  const scope = context.ctx.projectScope;
  if (!scope) return;
  const argument = EDITOR_FIELDS[fieldName];
  if (!argument)
    throw new UnauthenticatedError(
      `${fieldName} needs the client's credentials (X-Service); an editor session reaches its own project only`,
    );
  const id = args[argument];
  if (id !== scope) throw new NotFoundError('project', String(id ?? ''), argument);
}

/**
 * An editor session (opened by the project id of an editor link, never by a client's secret) reaches
 * one project: any other root field is refused as unauthenticated, and another project id is
 * "not found" like a foreign one. Every root field of the built schema is wrapped (a new resolver is
 * covered without being listed), and only root fields, so nested fields pay nothing; a subscription
 * is refused when it subscribes, before any event.
 */
export function scopeRootFieldsToEditorSessions(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const guard =
        (resolve: GraphQLFieldResolver<unknown, GraphqlContext>): GraphQLFieldResolver<unknown, GraphqlContext> =>
        (source, args, context, info) => {
          checkEditorScope(field.name, args, context);
          return resolve(source, args, context, info);
        };
      if (field.subscribe) field.subscribe = guard(field.subscribe);
      else field.resolve = guard(field.resolve ?? defaultFieldResolver);
    }
  }
  return schema;
}
