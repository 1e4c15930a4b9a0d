import type { FastifyPluginAsync } from 'fastify';
import { NotFoundError } from '../../domain/errors';
import { problemDocsByType, type ProblemDoc } from './problem-docs';

/**
 * `GET /problems/<code>`: what a problem's `type` names, so the URI in every error answer resolves
 * to its explanation. HTML for people (a browser following the link), JSON when asked for
 * (`Accept: application/json`); an unknown code is a 404 problem.
 */
export const problemRoutes: FastifyPluginAsync = async (app) => {
  const docs = problemDocsByType();
  app.get<{ Params: { code: string } }>('/problems/:code', { schema: { hide: true } }, async (request, reply) => {
    const doc = docs.get(`/problems/${request.params.code}`);
    if (!doc) throw new NotFoundError('problem type', request.params.code, 'code');
    if (wantsJson(request.headers.accept)) return reply.type('application/json').send(doc);
    return reply.type('text/html; charset=utf-8').send(htmlPage(doc));
  });
};

/** JSON when the client names it and not HTML: a browser's Accept lists text/html. */
function wantsJson(accept: string | undefined): boolean {
  return Boolean(accept && /application\/(?:[\w.-]+\+)?json/.test(accept) && !accept.includes('text/html'));
}

function htmlPage(doc: ProblemDoc): string {
  const answers = doc.answers
    .map(
      (answer) => `<h2>HTTP ${answer.status} ${escapeHtml(answer.title)}</h2>\n<p>${markdownToHtml(answer.when)}</p>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${doc.code}: photobook service error</title></head>
<body>
<h1><code>${doc.code}</code></h1>
<p>A problem of type <code>${doc.type}</code>: its <code>code</code> is <code>${doc.code}</code>.</p>
${answers}
<p>Every error is an RFC 9457 problem document; <code>errors[]</code> names each field at fault.
The whole reference is docs/api.md, section Errors; the API is described at <a href="/docs">/docs</a>.</p>
</body>
</html>
`;
}

/** The explanations' Markdown: `code` spans kept as code, links into docs/api.md as their text. */
function markdownToHtml(markdown: string): string {
  return escapeHtml(markdown)
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
