import { errorCodes } from 'fastify';
import { ERROR_EXPLANATIONS } from '../../domain/error-explanations';
import { problemTitleOf, problemTypeOf } from '../problem';

/** What `GET /problems/<code>` tells about one code: each status it is answered with, and when. */
export interface ProblemDoc {
  code: string;
  type: string;
  answers: { status: number; title: string; when: string }[];
}

/**
 * The codes the HTTP framework raises itself, which reach a client as they are (problem.ts keeps
 * a 4xx error's own code); the commonest are mapped to ours before they get there.
 */
function frameworkExplanations(): { status: number; code: string; when: string }[] {
  const framework = Object.values(errorCodes).map((Raised) => new Raised());
  const refusals = framework.filter(
    (error) => error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500,
  );
  return [
    ...refusals.map((error) => ({
      status: error.statusCode!,
      code: error.code,
      when:
        `the HTTP framework (Fastify) refused the request with its \`${error.code}\`; ` +
        '`detail` gives its message (rare)',
    })),
    {
      status: 400,
      code: 'BAD_REQUEST',
      when: 'the HTTP framework refused the request without a code of its own; `detail` says why (rare)',
    },
  ];
}

/** Every code's documentation by its `type` path (`/problems/validation-failed`). */
export function problemDocsByType(): Map<string, ProblemDoc> {
  const docs = new Map<string, ProblemDoc>();
  const add = (code: string, status: number, when: string) => {
    const type = problemTypeOf(code);
    const doc = docs.get(type) ?? { code, type, answers: [] };
    doc.answers.push({ status, title: problemTitleOf(status), when });
    docs.set(type, doc);
  };
  for (const { status, codes, when } of ERROR_EXPLANATIONS) for (const code of codes) add(code, status, when);
  for (const { status, code, when } of frameworkExplanations())
    if (!docs.has(problemTypeOf(code))) add(code, status, when);
  return docs;
}
