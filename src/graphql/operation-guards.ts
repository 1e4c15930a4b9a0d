import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type ASTVisitor,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { MAX_ORDER_PAGE_SIZE, MAX_PROJECT_PAGE_SIZE } from '../domain/limits';
import { isPrototypeKey, isSafeText, PROTOTYPE_KEY_MESSAGE, unsafeTextError } from '../domain/safe-text';

/** The published GraphQL limits (docs/operations.md, Limits), as configured. */
export interface OperationLimits {
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  graphqlMaxAliases: number;
}

/**
 * Validation rules added to GraphQL's own for every operation, over HTTP and over graphql-ws:
 * depth, cost and alias limits (graphql-armor), no NUL or lone surrogate in a string literal and no
 * prototype key (`__proto__`, `constructor`, `prototype`) in an object literal.
 * Variables are checked by `unsafeVariablesError`, as they are not part of the document.
 */
export function operationRules(limits: OperationLimits): ValidationRule[] {
  // Reported as validation errors (all of them, like GraphQL's own), not thrown out of `validate`.
  const report = {
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
  };
  return [
    maxDepthRule({ n: limits.graphqlMaxDepth, ...report }),
    costWithPageSizes({ maxCost: limits.graphqlMaxCost, ...report }),
    maxAliasesRule({ n: limits.graphqlMaxAliases, ...report }),
    safeStringLiterals,
  ];
}

/** The most any connection's `first` accepts (campaign pages, in the campaign service, too). */
const LARGEST_PAGE_SIZE = Math.max(MAX_PROJECT_PAGE_SIZE, MAX_ORDER_PAGE_SIZE);

/**
 * graphql-armor's cost limit multiplies a connection's cost by its `first`, but only by a `first`
 * written as a number. It is handed the operation with every page size made explicit: an omitted
 * `first` is its default, a `first` given as a variable is the most the field accepts (the cost is
 * checked once per operation text, before any variables are known, so a variable can be anything).
 */
function costWithPageSizes(options: Parameters<typeof costLimitRule>[0]): ValidationRule {
  const armor = costLimitRule(options);
  return (context) => {
    const explicit = withExplicitPageSizes(context.getSchema(), context.getDocument());
    const fragments = new Map<string, FragmentDefinitionNode>();
    const operations = new Map<ASTNode, OperationDefinitionNode>();
    context.getDocument().definitions.forEach((definition, i) => {
      const rewritten = explicit.definitions[i];
      if (rewritten.kind === Kind.FRAGMENT_DEFINITION) fragments.set(rewritten.name.value, rewritten);
      if (rewritten.kind === Kind.OPERATION_DEFINITION) operations.set(definition, rewritten);
    });
    // armor reads fragments and reports through its context: this one serves the explicit fragments.
    const explicitContext = {
      getFragment: (name: string) => fragments.get(name),
      reportError: (error: GraphQLError) => context.reportError(error),
    };
    const costOf = armor(explicitContext as unknown as ValidationContext) as unknown as {
      OperationDefinition: { enter(node: OperationDefinitionNode): void };
    };
    return {
      OperationDefinition(node) {
        costOf.OperationDefinition.enter(operations.get(node) ?? node);
      },
    };
  };
}

function withExplicitPageSizes(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const types = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(types, {
      Field(node): FieldNode | undefined {
        const pageSize = types.getFieldDef()?.args.find((argument) => argument.name === 'first');
        if (!pageSize) return undefined;
        const given = node.arguments?.find((argument) => argument.name.value === 'first');
        if (given?.value.kind === Kind.INT) return undefined;
        const size = given
          ? given.value.kind === Kind.VARIABLE
            ? LARGEST_PAGE_SIZE
            : undefined
          : pageSize.defaultValue;
        if (typeof size !== 'number') return undefined;
        const first: ArgumentNode = {
          kind: Kind.ARGUMENT,
          name: { kind: Kind.NAME, value: 'first' },
          value: { kind: Kind.INT, value: String(size) },
        };
        return { ...node, arguments: [...(node.arguments ?? []).filter((argument) => argument !== given), first] };
      },
    }),
  );
}

function safeStringLiterals(context: ValidationContext): ASTVisitor {
  return {
    // A JSONObject literal (`metadata: {__proto__: …}`) takes any key: refused as REST's parser and unsafeTextError refuse it.
    ObjectField(node, _key, parent, _path, ancestors) {
      if (!isPrototypeKey(node.name.value)) return;
      const field = fieldPathOf([...(parent ? [...ancestors, parent] : ancestors), node]);
      context.reportError(
        new GraphQLError(`${field}: ${PROTOTYPE_KEY_MESSAGE}`, {
          nodes: node,
          extensions: { code: 'INVALID_TEXT', errors: [{ path: field, message: PROTOTYPE_KEY_MESSAGE }] },
        }),
      );
    },
    StringValue(node, _key, parent, _path, ancestors) {
      if (isSafeText(node.value)) return;
      const field = fieldPathOf(parent ? [...ancestors, parent] : ancestors);
      const message = 'must not contain a NUL character or an unpaired UTF-16 surrogate';
      context.reportError(
        new GraphQLError(`${field}: ${message}`, {
          nodes: node,
          extensions: { code: 'INVALID_TEXT', errors: [{ path: field, message }] },
        }),
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
  return new GraphQLError(`${problem.path}: ${problem.message}`, {
    extensions: { code: 'INVALID_TEXT', errors: [problem] },
  });
}
