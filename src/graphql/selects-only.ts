import { Kind, type GraphQLResolveInfo } from 'graphql';

/**
 * Whether the field being resolved asks for nothing outside `fields` (look-ahead, so a resolver can
 * read fewer columns). A fragment counts as asking for anything: the answer errs towards reading more.
 */
export function selectsOnly(info: GraphQLResolveInfo, fields: ReadonlySet<string>): boolean {
  return info.fieldNodes.every((node) =>
    (node.selectionSet?.selections ?? []).every(
      (selection) => selection.kind === Kind.FIELD && fields.has(selection.name.value),
    ),
  );
}
