/**
 * Open-loop load: request `n` is due at `start + n / rate` seconds and is sent then, whether or
 * not earlier ones have been answered, so a slow server meets more concurrent requests instead
 * of fewer (a closed loop would wait, send less and report flattering latency). `fire` gets the
 * index and the time it was due; latency measured from that time includes any wait on our side.
 * Resolves when `total` requests were sent (or `stop` aborted) and every one has settled.
 */
export async function openLoop(
  rate: number,
  total: number,
  fire: (n: number, dueAt: number) => Promise<void>,
  stop: AbortSignal,
): Promise<void> {
  const start = performance.now()
  const inFlight = new Set<Promise<void>>()
  let sent = 0
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1)
      for (; sent < due; sent++) {
        const request = fire(sent, start + (sent * 1000) / rate)
        inFlight.add(request)
        request.finally(() => inFlight.delete(request))
      }
      if (sent >= total || stop.aborted) {
        clearInterval(timer)
        done()
      }
    }
    // 2 ms ticks: at 200 requests/s a request is due every 5 ms.
    const timer = setInterval(tick, 2)
  })
  await Promise.allSettled([...inFlight])
}
