/** One response as a browser sees it, without following redirects. */
export interface Page {
  status: number
  location: string | null
  body: string
  headers: Headers
}

/**
 * A scripted browser: a cookie jar (by name, which is all the authorization server's cookies
 * need) and form posts, with redirects left to the caller so each step can be asserted.
 */
export class Browser {
  readonly #cookies = new Map<string, string>()
  readonly origin: string

  constructor(origin: string) {
    this.origin = origin
  }

  /** GET a URL (absolute, or a path on the server). */
  get(url: string): Promise<Page> {
    return this.#send(url, { method: 'GET' })
  }

  /**
   * POST a form, as a browser submitting one of the server's own pages does: with the page's
   * `Origin` and `Sec-Fetch-Site: same-origin` (Chromium under `Referrer-Policy: same-origin`),
   * unless `headers` says otherwise. A list is a field that repeats, as ticked checkboxes do.
   */
  post(
    url: string,
    form: Record<string, string | readonly string[]>,
    headers: Record<string, string> = {},
  ) {
    const fields = Object.entries(form).flatMap(([name, value]): [string, string][] =>
      typeof value === 'string' ? [[name, value]] : value.map((one) => [name, one]),
    )
    return this.#send(url, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: this.origin,
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
        ...headers,
      },
    })
  }

  /** Forgets every cookie (a different browser, or cleared storage). */
  clearCookies(): void {
    this.#cookies.clear()
  }

  async #send(url: string, init: RequestInit): Promise<Page> {
    const target = new URL(url, this.origin)
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const headers = new Headers(init.headers)
    if (cookie && target.origin === this.origin) headers.set('cookie', cookie)
    const response = await fetch(target, { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) this.#store(line)
    const location = response.headers.get('location')
    return {
      status: response.status,
      location: location ? new URL(location, target).href : null,
      body: await response.text(),
      headers: response.headers,
    }
  }

  #store(line: string): void {
    const [pair = '', ...attributes] = line.split(';')
    const at = pair.indexOf('=')
    const name = pair.slice(0, at).trim()
    const value = pair.slice(at + 1).trim()
    const expired = attributes.some((attribute) => {
      const [key = '', val = ''] = attribute.split('=')
      const k = key.trim().toLowerCase()
      return (
        (k === 'max-age' && Number(val) <= 0) || (k === 'expires' && Date.parse(val) < Date.now())
      )
    })
    if (expired || value === '') this.#cookies.delete(name)
    else this.#cookies.set(name, value)
  }
}

/** The action and hidden fields of the first form on a page whose action contains `path`. */
export function formOn(
  body: string,
  path: string,
): { action: string; fields: Record<string, string> } {
  for (const match of body.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attributes = match[1] as string
    const action = /\baction="([^"]+)"/.exec(attributes)?.[1]
    if (!/\bmethod="post"/.test(attributes) || !action?.includes(path)) continue
    const fields: Record<string, string> = {}
    for (const input of (match[2] as string).matchAll(/<input\b[^>]*>/g)) {
      const tag = input[0]
      if (!/\btype="hidden"/.test(tag)) continue
      const name = /\bname="([^"]+)"/.exec(tag)?.[1]
      if (name) fields[name] = decodeEntities(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '')
    }
    return { action, fields }
  }
  throw new Error(`no form posting to …${path} on the page:\n${body}`)
}

// Attribute values as the browser reads them: the templates escape with character references.
function decodeEntities(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(ref.slice(2), 16))
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)))
    return named[ref.toLowerCase()] ?? whole
  })
}
