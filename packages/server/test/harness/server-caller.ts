/** An answer of a running server: its status and its JSON body (undefined when empty). */
// biome-ignore lint/suspicious/noExplicitAny: answers are read as the API documents them
export type ServerAnswer = { status: number; json: any }

/** JSON requests to a server running in another process, with a bearer token. */
export interface ServerCaller {
  get(path: string): Promise<ServerAnswer>
  post(path: string, body: unknown): Promise<ServerAnswer>
}

/** A caller of the server at `base` (`http://127.0.0.1:PORT`) as the holder of `token`. */
export function serverCaller(base: string, token: string): ServerCaller {
  const send = async (method: string, path: string, body?: unknown): Promise<ServerAnswer> => {
    const reply = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await reply.text()
    return { status: reply.status, json: text ? JSON.parse(text) : undefined }
  }
  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
  }
}
