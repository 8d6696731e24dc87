import { catalogueKindOf } from './ids.ts'

/** The two addresses of a record: its page in the product and the record in this API. */
export interface ResourceUrls {
  url: string
  api_url: string
}

/** Where the product's pages and this API are served (the settings APP_URL and PUBLIC_URL). */
export interface ServedAt {
  appUrl: string
  publicUrl: string
}

/** Builds `url` and `api_url` of resources (docs/api.md, "Records"). */
export class UrlBuilder {
  readonly #config: ServedAt

  constructor(config: ServedAt) {
    this.#config = config
  }

  /** URLs of a resource of the given type. */
  resource(workspaceId: string, type: string, id: string): ResourceUrls {
    return {
      url: `${this.#config.appUrl}/${workspaceId}/${type}/${id}`,
      api_url: `${this.#config.publicUrl}/v1/resources/${id}`,
    }
  }

  /** URLs of the workspace itself. */
  workspace(workspaceId: string): ResourceUrls {
    return {
      url: `${this.#config.appUrl}/${workspaceId}`,
      api_url: `${this.#config.publicUrl}/v1/workspace`,
    }
  }

  /**
   * The id a URL of this service names: a resource's page or its `api_url`, as `resource` made
   * them (a query or fragment is ignored). Undefined for any other URL, so that an agent may pass
   * back what it was given and nothing else.
   */
  idIn(text: string): string | undefined {
    const url = URL.parse(text)
    if (!url) return undefined
    for (const base of [this.#config.appUrl, this.#config.publicUrl]) {
      const root = new URL(base)
      const rootPath = root.pathname.replace(/\/$/, '')
      if (url.origin !== root.origin || !url.pathname.startsWith(`${rootPath}/`)) continue
      const path = url.pathname.slice(rootPath.length + 1).split('/')
      const api = path[0] === 'v1' && path[1] === 'resources' ? path[2] : undefined
      const page = path.length === 3 && catalogueKindOf(path[2] ?? '') ? path[2] : undefined
      const id = api ?? page
      if (id && catalogueKindOf(id)) return id
    }
    return undefined
  }
}
