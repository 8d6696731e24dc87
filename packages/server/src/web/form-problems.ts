import { html } from 'ghtml'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import '../lib/typebox-formats.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import { sentencesOf } from '../api/validation-messages.ts'

/** What a refused form shows: the status, a summary, and a message per field (JSON pointer). */
export interface FormProblem {
  readonly status: number
  readonly detail: string
  readonly fields: ReadonlyMap<string, string>
}

/**
 * Checks a form's input against the API route's own schema, so a page accepts exactly what the
 * API does; a refusal is the API's 400 with one message per field.
 */
export function checkedInput<T>(schema: TSchema, input: unknown): T {
  if (Value.Check(schema, input)) return input as T
  // The API's sentences, each beside its field (an item's message beside its list).
  const errors = sentencesOf([...Value.Errors(schema, input)]).map((sentence) => ({
    path: sentence.path.replace(/\/\d+$/, '') || '/',
    message: sentence.message,
  }))
  throw new ProblemError('invalid_request', 'The form has fields to correct.', { errors })
}

/** The problem a command or a check threw, as a form shows it; null for a failure of ours. */
export function formProblem(error: unknown): FormProblem | null {
  if (!(error instanceof ProblemError) || error.status >= 500) return null
  const fields = new Map<string, string>()
  for (const { path, message } of error.extras.errors ?? [])
    if (!fields.has(path)) fields.set(path, message)
  return { status: error.status, detail: error.message, fields }
}

/** The message beside a field (its id is the field's `aria-describedby`), or nothing. */
export function fieldError(problem: FormProblem | null, path: string, id: string): string {
  const message = problem?.fields.get(path)
  return message ? html`<p class="error field-error" id="${id}">${message}</p>` : ''
}

/** The `aria-describedby` and `aria-invalid` of a field that has an error. */
export function invalidAttributes(problem: FormProblem | null, path: string, id: string): string {
  return problem?.fields.has(path) ? html` aria-invalid="true" aria-describedby="${id}"` : ''
}

/** The summary of a refused form, announced to screen readers. */
export function problemSummary(problem: FormProblem | null): string {
  return problem ? html`<p class="error" role="alert">${problem.detail}</p>` : ''
}

/** A datetime-local value (no zone, maybe no seconds) read as UTC, as the pages' labels say. */
export function utcInstant(value: string | undefined): string | undefined {
  if (!value) return value
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(value) ? `${value.padEnd(19, ':00')}Z` : value
}

/** The summary, unless it only repeats a message already shown beside its field. */
export function problemSummaryOnce(problem: FormProblem | null): string {
  if (problem && [...problem.fields.values()].includes(problem.detail)) return ''
  return problemSummary(problem)
}
