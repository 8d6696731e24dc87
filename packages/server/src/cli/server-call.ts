import { CommandFailure } from './cli-io.ts'
import type { ServerTarget } from './server-target.ts'

/**
 * One request of a command to the server's API, as the token's owner: its JSON answer, or the
 * problem's detail and field messages as the command's failure.
 */
export async function serverCall(
  target: ServerTarget,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(new URL(path, target.base), {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const text = await response.text()
  const answer = text ? (JSON.parse(text) as Record<string, unknown>) : {}
  if (!response.ok) {
    const fields = (answer.errors as { path: string; message: string }[] | undefined) ?? []
    const detail = [answer.detail, ...fields.map((f) => `${f.path} ${f.message}`)].join(' ')
    throw new CommandFailure(`${method} ${path}: ${response.status} ${detail}`)
  }
  return answer
}
