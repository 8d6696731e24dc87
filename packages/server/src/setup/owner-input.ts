import Type, { type Static } from 'typebox'

/** The shortest and longest password the service accepts (dashboard, init, set-password). */
export const PASSWORD_LENGTH = { min: 12, max: 1024 } as const

/**
 * What a new workspace and its owner are made of, as `workgraph init` and the first-run page take
 * them: the same limits as a bundle's workspace and people (docs/bundles.md).
 */
export const NewOwner = Type.Object(
  {
    workspace_name: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.String({ format: 'email', maxLength: 320 }),
  },
  { additionalProperties: false },
)

/** A new workspace and its owner, checked. */
export type NewOwner = Static<typeof NewOwner>

/** The fields of a form or command, trimmed (a name of spaces alone is empty). */
export function trimmedOwner(input: {
  workspace_name?: unknown
  name?: unknown
  email?: unknown
}): NewOwner {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
  return {
    workspace_name: text(input.workspace_name),
    name: text(input.name),
    email: text(input.email),
  }
}

/** Why a password is refused, or null when its length is allowed. */
export function passwordProblem(password: string): string | null {
  if (password.length >= PASSWORD_LENGTH.min && password.length <= PASSWORD_LENGTH.max) return null
  return `The password must have ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`
}
