import type { AppDeps } from '../app-deps.ts'

interface SealedSecrets {
  workspace_id: string
  id: string
  secret_sealed: string
  previous_secret_sealed: string | null
  previous_expires_at: Date | null
}

/** The sealing context of an endpoint's secret: a sealed value is bound to its endpoint. */
export function secretContext(workspaceId: string, endpointId: string): string {
  return `webhook-secret:${workspaceId}:${endpointId}`
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function openEndpointSecrets(
  deps: AppDeps,
  endpoint: SealedSecrets,
  now: Date,
): { current: string; previous: string | null } {
  const context = secretContext(endpoint.workspace_id, endpoint.id)
  const previousLive =
    endpoint.previous_secret_sealed !== null &&
    endpoint.previous_expires_at !== null &&
    endpoint.previous_expires_at > now
  return {
    current: deps.secrets.open(endpoint.secret_sealed, context),
    previous:
      previousLive && endpoint.previous_secret_sealed
        ? deps.secrets.open(endpoint.previous_secret_sealed, context)
        : null,
  }
}
