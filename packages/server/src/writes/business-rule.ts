import { ProblemError } from '../api/problem-catalogue.ts'
import { fieldName } from '../api/validation-messages.ts'

/**
 * A 422 for a well-formed request that breaks a rule of the product (an assignee who cannot open
 * the project, a parent in another project), located at the field that breaks it. `message` is
 * what the field must be (`must not be blank`), said as a sentence that names the field, as
 * schema refusals are (docs/errors.md); a message that is a sentence already is kept.
 */
export function ruleBroken(path: string, message: string): ProblemError {
  const sentence = /^[A-Z]/.test(message) ? message : `${fieldName(path)} ${message}.`
  return new ProblemError('validation_failed', sentence, {
    errors: [{ path, message: sentence }],
  })
}

/** Text fields must say something: a title of spaces is refused like an empty one. */
export function requireText(path: string, value: string | undefined): void {
  if (value !== undefined && value.trim() === '') throw ruleBroken(path, 'must not be blank')
}

/**
 * What a credential fenced to projects makes must be inside its fence (docs/permissions.md,
 * "Fenced credentials"): left without a project, it would be made where the credential itself
 * could never open it again.
 */
export function requireProjectInFence(
  fence: readonly string[] | null,
  projectId: string | null,
): void {
  if (fence !== null && projectId === null)
    throw ruleBroken('/project_id', 'is required: this credential is fenced to projects')
}
