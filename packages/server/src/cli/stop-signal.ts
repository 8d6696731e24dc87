/** The first SIGTERM or SIGINT to come, and a way to stop waiting for one. */
export interface StopSignal {
  readonly received: Promise<NodeJS.Signals>
  /** Removes the handlers: the command ends on its own. */
  cancel(): void
}

/**
 * Starts waiting for SIGTERM or SIGINT. Call it before telling anyone the process is ready: a
 * supervisor (or a test) may send its signal the moment it reads the ready line, and a signal
 * that comes before the handlers are in place ends the process with no shutdown at all.
 */
export function stopSignal(): StopSignal {
  const { promise, resolve } = Promise.withResolvers<NodeJS.Signals>()
  const stop = (signal: NodeJS.Signals) => {
    cancel()
    resolve(signal)
  }
  const cancel = () => {
    process.off('SIGTERM', stop)
    process.off('SIGINT', stop)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  return { received: promise, cancel }
}
