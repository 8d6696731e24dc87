/** Draws `done/total` on a terminal line; draws nothing when the stream is not a terminal. */
export function progressBar(
  stream: { write(text: string): unknown; isTTY?: boolean },
  label: string,
) {
  let last = 0
  const width = 30
  return {
    update(done: number, total: number): void {
      if (!stream.isTTY) return
      const now = Date.now()
      if (now - last < 100 && done < total) return
      last = now
      const filled = total === 0 ? width : Math.round((done / total) * width)
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100)
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% ${done}/${total}`,
      )
    },
    finish(): void {
      if (stream.isTTY) stream.write('\n')
    },
  }
}
