import { PROBLEMS, type ProblemError } from './problem-catalogue.ts'

/** Where the `type` URIs of problems point; docs/errors.md has an anchor per code. */
export const PROBLEM_TYPE_BASE = 'https://workgraph.dev/errors/'

/** The RFC 9457 body of a problem. */
export function problemBody(problem: ProblemError, requestId: string): Record<string, unknown> {
  const { errors, required_scopes } = problem.extras
  return {
    type: `${PROBLEM_TYPE_BASE}${problem.code}`,
    title: PROBLEMS[problem.code].title,
    status: problem.status,
    code: problem.code,
    detail: problem.message,
    request_id: requestId,
    ...(errors ? { errors } : {}),
    ...(required_scopes ? { required_scopes } : {}),
  }
}
