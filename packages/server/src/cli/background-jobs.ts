import type { Logger } from 'pino'
import type { AppDeps } from '../app-deps.ts'
import { OUTBOX_CHANNEL } from '../db/channels.ts'
import { listenForNotifications } from '../db/notification-listener.ts'
import { sweepExpiredArtifacts } from '../oauth/artifact-adapter.ts'
import { sweepPasswordLinks } from '../setup/password-links.ts'
import { sweepSetupTokens } from '../setup/setup-tokens.ts'
import { sweepWebSessions } from '../web/web-session.ts'
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.ts'
import { sweepWebhookHistory } from '../webhooks/webhook-retention.ts'
import { sweepExpiredKeys } from '../writes/idempotency-store.ts'

const SWEEP_EVERY_MS = 10 * 60_000

/** Work a process does beside answering requests; `stop` ends it gracefully. */
export interface BackgroundJobs {
  stop(): Promise<void>
}

/**
 * Starts the sweepers (expired idempotency keys, webhook history past retention, expired OAuth
 * artefacts; any instance may run them, and deleting twice is harmless) and, when asked, a
 * webhook dispatcher that a write's commit wakes at once.
 */
export function startBackgroundJobs(
  deps: AppDeps,
  logger: Logger,
  options: { dispatch: boolean },
): BackgroundJobs {
  const sweep = () => {
    const now = deps.clock.now()
    sweepExpiredKeys(deps.db, now).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not sweep expired idempotency keys'),
    )
    sweepWebhookHistory(deps.db, now, deps.config.webhookLogRetentionDays).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not sweep webhook history'),
    )
    sweepExpiredArtifacts(deps.db, now).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not sweep expired OAuth codes, tokens and sessions'),
    )
    sweepWebSessions(deps.db, now).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not sweep ended dashboard sessions'),
    )
    Promise.all([sweepPasswordLinks(deps.db, now), sweepSetupTokens(deps.db, now)]).catch(
      (error: unknown) => logger.warn({ err: error }, 'could not sweep spent one-time links'),
    )
  }
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS)
  sweeper.unref()
  const dispatcher = options.dispatch
    ? new WebhookDispatcher(deps, {
        onError: (error) => logger.warn({ err: error }, 'webhook dispatch round failed; retrying'),
      })
    : null
  let listener: { close(): Promise<void> } | null = null
  if (dispatcher) {
    // Writes of this process wake it directly; on PostgreSQL, other processes' writes via NOTIFY.
    deps.writeHooks.afterCommit = () => dispatcher.nudge()
    if (deps.config.databaseUrl)
      listener = listenForNotifications(deps.config.databaseUrl, OUTBOX_CHANNEL, {
        notification: () => dispatcher.nudge(),
        lost: (error) =>
          logger.warn({ err: error }, 'outbox listener lost its connection; reconnecting'),
      })
    dispatcher.start()
  }
  return {
    async stop() {
      clearInterval(sweeper)
      deps.writeHooks.afterCommit = undefined
      await listener?.close()
      await dispatcher?.stop()
    },
  }
}
