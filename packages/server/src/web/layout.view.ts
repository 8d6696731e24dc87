import { html } from 'ghtml'
import type { Role } from '../access/principal.ts'
import { ASSETS } from './assets.routes.ts'
import type { WebContext } from './web-context.ts'

/** One entry of the header's navigation; pages that others add append to NAV_ITEMS. */
export interface NavItem {
  readonly href: string
  readonly label: string
  /** Shown only to these roles (owners and admins for the admin pages); everyone when absent. */
  readonly roles?: readonly Role[]
}

/** The header's navigation, in order. Add an entry when its page exists, never before. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Home' },
  { href: '/teams', label: 'Teams' },
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/apps', label: 'OAuth apps' },
  { href: '/people', label: 'People', roles: ['owner', 'admin'] },
  { href: '/settings/tokens', label: 'Workspace tokens', roles: ['owner', 'admin'] },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/audit', label: 'Audit log', roles: ['owner', 'admin'] },
]

/** What the layout wraps: the page's title (also its one h1, written by the page), its body. */
export interface LayoutInput {
  readonly title: string
  /** The signed-in session; null on the sign-in and error pages of a signed-out visitor. */
  readonly web: WebContext | null
  /** Trusted HTML of the page, already escaped by ghtml's `html`. */
  readonly body: string
  /** The nav entry to mark as the current page. */
  readonly current?: string
}

/**
 * The frame of every page: skip link, header with the workspace, navigation and sign-out, then
 * the page in <main>. Only ghtml's `html` writes markup: every interpolation is escaped unless
 * marked `!${}`, which is kept for HTML that `html` itself produced.
 */
export function layout(input: LayoutInput): string {
  const { web } = input
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title} · Workgraph</title>
<link rel="stylesheet" href="${ASSETS.css.url}">
<script src="${ASSETS.js.url}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="bar">
<a class="brand" href="/">Workgraph!${web ? html` <span>· ${web.session.workspaceName}</span>` : ''}</a>
!${web ? navigation(web, input.current) : ''}
!${web ? signedInAs(web) : ''}
</div></header>
<main id="main" tabindex="-1">
!${input.body}
</main>
<footer class="site-footer">Workgraph</footer>
</body>
</html>
`}`
}

function navigation(web: WebContext, current: string | undefined): string {
  const items = NAV_ITEMS.filter((item) => !item.roles || item.roles.includes(web.session.role))
  return html`<nav class="site-nav" aria-label="Main"><ul>!${items.map(
    (item) =>
      html`<li><a href="${item.href}"!${item.href === current ? ' aria-current="page"' : ''}>${item.label}</a></li>`,
  )}</ul></nav>`
}

function signedInAs(web: WebContext): string {
  return html`<div class="who"><a href="${personPath(web)}">${web.session.personName}</a>
!${csrfForm('/sign-out', web.csrf, html`<button class="link" type="submit">Sign out</button>`)}</div>`
}

function personPath(web: WebContext): string {
  return `/${web.session.workspaceId}/person/${web.session.personId}`
}

/** A POST form to `action` carrying the session's CSRF token; `inner` is trusted HTML. */
export function csrfForm(action: string, csrf: string, inner: string, attributes = ''): string {
  return html`<form method="post" action="${action}"!${attributes ? ` ${attributes}` : ''}><input type="hidden" name="csrf" value="${csrf}">!${inner}</form>`
}
