import { CommandFailure } from './cli-io.ts'

/** A terminal's input, as a hidden prompt reads it. */
export interface TerminalInput {
  isTTY?: boolean
  setRawMode(raw: boolean): unknown
  setEncoding(encoding: BufferEncoding): unknown
  resume(): unknown
  pause(): unknown
  on(event: 'data', listener: (chunk: string) => void): unknown
  off(event: 'data', listener: (chunk: string) => void): unknown
}

// Keys a hidden prompt reads itself, in raw mode, where the terminal handles none.
const ENTER = /[\r\n]/
const CTRL_C = '\u0003'
const CTRL_D = '\u0004'
const BACKSPACE = /[\u007f\b]/

/**
 * Reads one line from a terminal without showing it: the terminal is put in raw mode, so nothing
 * typed is echoed, and Enter ends the line; Backspace erases, Ctrl-C and Ctrl-D cancel.
 */
export function promptHidden(
  input: TerminalInput,
  output: { write(text: string): unknown },
  prompt: string,
): Promise<string> {
  output.write(prompt)
  input.setRawMode(true)
  input.setEncoding('utf8')
  input.resume()
  return new Promise((resolve, reject) => {
    let value = ''
    const end = () => {
      input.off('data', onData)
      input.setRawMode(false)
      input.pause()
      output.write('\n')
    }
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (ENTER.test(character)) {
          end()
          resolve(value)
          return
        }
        if (character === CTRL_C || character === CTRL_D) {
          end()
          reject(new CommandFailure('Cancelled: no password was set.'))
          return
        }
        value = BACKSPACE.test(character) ? value.slice(0, -1) : value + character
      }
    }
    input.on('data', onData)
  })
}
