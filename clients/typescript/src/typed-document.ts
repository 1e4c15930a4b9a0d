import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';

/** A generated operation (src/generated/graphql): its text, typed by its result and variables. */
export type TypedDocument<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & { toString(): string };

/** Variables as an argument: optional when the operation has no required variable. */
export type VariablesArgument<TVariables> =
  Record<string, never> extends TVariables ? [variables?: TVariables] : [variables: TVariables];
