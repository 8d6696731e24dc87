import { html } from 'ghtml'
import { problemType } from '../api/problem-body.ts'
import { PROBLEMS, type ProblemCode } from '../api/problem-catalogue.ts'
import { layout } from '../web/layout.view.ts'

// Headers that come with some codes, beyond the x-request-id and RateLimit-* every answer has.
const HEADERS_OF: Partial<Record<ProblemCode, string>> = {
  unauthenticated: '`WWW-Authenticate: Bearer realm="workgraph", …` says how to authenticate.',
  invalid_token: '`WWW-Authenticate: Bearer …, error="invalid_token"`.',
  token_expired: '`WWW-Authenticate: Bearer …, error="invalid_token"`.',
  insufficient_scope: '`WWW-Authenticate: Bearer …, error="insufficient_scope", scope="…"`.',
  method_not_allowed: '`Allow` lists the methods the path takes.',
  idempotency_key_in_use: '`Retry-After` says how many seconds to wait.',
  rate_limited: '`Retry-After` and `RateLimit-Reset` say how many seconds to wait.',
  service_unavailable: '`Retry-After` says how many seconds to wait.',
}

/** The page at a problem's `type` URI: what the code means, what to do, what the answer holds. */
export function errorPage(code: ProblemCode, publicUrl: string): string {
  const problem = PROBLEMS[code]
  const example = {
    type: problemType(publicUrl, code),
    title: problem.title,
    status: problem.status,
    code,
    detail: '…',
    request_id: 'req_…',
  }
  const headers = HEADERS_OF[code]
  return layout({
    title: problem.title,
    web: null,
    body: html`<p><a href="/errors">Errors</a></p>
<h1>${problem.title}</h1>
<p><code>${code}</code> · HTTP ${problem.status}</p>
<p>!${inlineMarkdown(problem.meaning)}</p>
!${headers ? html`<h2>Headers</h2><p>!${inlineMarkdown(headers)}</p>` : ''}
<h2>The answer</h2>
<p>An <code>application/problem+json</code> body (RFC 9457). Branch on <code>code</code>; quote
<code>request_id</code> (also the <code>x-request-id</code> header) when you report a problem.</p>
<pre class="bytes" tabindex="0">${JSON.stringify(example, null, 2)}</pre>
<p><a href="/reference">API reference</a></p>`,
  })
}

/** The index of every error code, each linking to its page. */
export function errorIndexPage(): string {
  const items = Object.entries(PROBLEMS).map(
    ([code, problem]) =>
      html`<li><a href="/errors/${code}"><code>${code}</code></a> · ${problem.status} ${problem.title}</li>`,
  )
  return layout({
    title: 'Errors',
    web: null,
    body: html`<h1>Errors</h1>
<p>Every error is an <code>application/problem+json</code> body with a stable <code>code</code>;
its <code>type</code> is the address of the code's page here.</p>
<ul>!${items}</ul>
<p><a href="/reference">API reference</a></p>`,
  })
}

// The catalogue's texts use two bits of Markdown: `code` and **strong**. Escaped first, so the
// text can never add other markup.
function inlineMarkdown(text: string): string {
  return html`${text}`
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
}
