import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, Kind, type ASTNode, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';
import { isSafeText, unsafeTextError } from '../domain/safe-text';

/** The published GraphQL limits (README, Limits), as configured. */
export interface OperationLimits {
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  graphqlMaxAliases: number;
}

/**
 * Validation rules added to GraphQL's own for every operation, over HTTP and over graphql-ws:
 * depth, cost and alias limits (graphql-armor), and no NUL or lone surrogate in a string literal.
 * Variables are checked by `unsafeVariablesError`, as they are not part of the document.
 */
export function operationRules(limits: OperationLimits): ValidationRule[] {
  // Reported as validation errors (all of them, like GraphQL's own), not thrown out of `validate`.
  const report = { exposeLimits: true, propagateOnRejection: false, onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)] };
  return [
    maxDepthRule({ n: limits.graphqlMaxDepth, ...report }),
    costLimitRule({ maxCost: limits.graphqlMaxCost, ...report }),
    maxAliasesRule({ n: limits.graphqlMaxAliases, ...report }),
    safeStringLiterals,
  ];
}

function safeStringLiterals(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node, _key, parent, _path, ancestors) {
      if (isSafeText(node.value)) return;
      const field = fieldPathOf(parent ? [...ancestors, parent] : ancestors);
      const message = 'must not contain a NUL character or an unpaired UTF-16 surrogate';
      context.reportError(
        new GraphQLError(`${field}: ${message}`, { nodes: node, extensions: { code: 'INVALID_TEXT', errors: [{ path: field, message }] } }),
      );
    },
  };
}

/** `generateProject(input: {custom: {a: "…"}})` -> `input.custom.a`: the argument as the client wrote it. */
function fieldPathOf(ancestors: readonly (ASTNode | readonly ASTNode[])[]): string {
  const names: string[] = [];
  for (const ancestor of ancestors) {
    if (!('kind' in ancestor)) continue;
    if (ancestor.kind === Kind.ARGUMENT || ancestor.kind === Kind.OBJECT_FIELD) names.push(ancestor.name.value);
  }
  return names.join('.') || '(query)';
}

/** A NUL or lone surrogate anywhere in an operation's variables, as a GraphQL error naming it. */
export function unsafeVariablesError(variables: unknown): GraphQLError | null {
  const problem = unsafeTextError(variables, 'variables');
  if (!problem) return null;
  return new GraphQLError(`${problem.path}: ${problem.message}`, { extensions: { code: 'INVALID_TEXT', errors: [problem] } });
}
