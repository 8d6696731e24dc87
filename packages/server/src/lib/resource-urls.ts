import type { Config } from '../config.ts'

/** The two citation targets of a record: its page in the product and its summary in this API. */
export interface ResourceUrls {
  url: string
  api_url: string
}

/** Builds `url` and `api_url` of resources (docs/api.md, "Records"). */
export class UrlBuilder {
  readonly #config: Pick<Config, 'appUrl' | 'publicUrl'>

  constructor(config: Pick<Config, 'appUrl' | 'publicUrl'>) {
    this.#config = config
  }

  /** URLs of a resource of the given type. */
  resource(workspaceId: string, type: string, id: string): ResourceUrls {
    return {
      url: `${this.#config.appUrl}/${workspaceId}/${type}/${id}`,
      api_url: `${this.#config.publicUrl}/v1/resources/${id}/summary`,
    }
  }

  /** URLs of the workspace itself. */
  workspace(workspaceId: string): ResourceUrls {
    return {
      url: `${this.#config.appUrl}/${workspaceId}`,
      api_url: `${this.#config.publicUrl}/v1/workspace`,
    }
  }
}
