import Type from 'typebox'

/** The `dry_run` query parameter as the OpenAPI document declares it. */
export const DryRunParameter = Type.Optional(
  Type.Boolean({
    description:
      'true: validate and answer what the write would do (`{ dry_run, result, activity, events }`, status 200) without changing anything. Only `true` and `false` are accepted.',
  }),
)

/** True when the request asked for a dry run (the dry-run hook refuses any other value first). */
export function isDryRun(request: { readonly query: unknown }): boolean {
  const value = (request.query as { dry_run?: unknown } | undefined)?.dry_run
  return value === true || value === 'true'
}
