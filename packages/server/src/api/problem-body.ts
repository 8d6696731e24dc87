import { PROBLEMS, type ProblemCode, type ProblemError } from './problem-catalogue.ts'

/**
 * The `type` URI of a problem: the page this server serves for its code (GET /errors/:code), so
 * the link in an error leads somewhere a person can read. docs/errors.md says the same.
 */
export function problemType(publicUrl: string, code: ProblemCode): string {
  return `${publicUrl}/errors/${code}`
}

/** The RFC 9457 body of a problem, its `type` a page under the server's public URL. */
export function problemBody(
  problem: ProblemError,
  requestId: string,
  publicUrl: string,
): Record<string, unknown> {
  const { errors, required_scopes } = problem.extras
  return {
    type: problemType(publicUrl, problem.code),
    title: PROBLEMS[problem.code].title,
    status: problem.status,
    code: problem.code,
    detail: problem.message,
    request_id: requestId,
    ...(errors ? { errors } : {}),
    ...(required_scopes ? { required_scopes } : {}),
  }
}
