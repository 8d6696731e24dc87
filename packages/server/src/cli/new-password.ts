import { passwordProblem } from '../setup/owner-input.ts'
import { type CliIO, CommandFailure } from './cli-io.ts'
import { promptHidden, type TerminalInput } from './password-input.ts'

/**
 * A new password for `who`: asked twice without echo on a terminal, else read from standard input
 * (a file or a pipe), whose final line break is not part of it; never from the command line,
 * where other users of the machine could read it in the process list. A password of the wrong
 * length, or two answers that differ, is a failure that sets nothing.
 */
export async function readNewPassword(io: CliIO, who: string): Promise<string> {
  const password = await readPassword(io, who)
  const problem = passwordProblem(password)
  if (problem) throw new CommandFailure(problem)
  return password
}

async function readPassword(io: CliIO, who: string): Promise<string> {
  const terminal = io.stdin as (CliIO['stdin'] & Partial<TerminalInput>) | undefined
  if (terminal?.isTTY && typeof terminal.setRawMode === 'function') {
    const input = terminal as TerminalInput
    const first = await promptHidden(input, io.stderr, `New password for ${who}: `)
    const again = await promptHidden(input, io.stderr, 'The same again: ')
    if (first !== again) throw new CommandFailure('The two passwords differ: nothing was set.')
    return first
  }
  return (await readAll(io.stdin)).replace(/\r?\n$/, '')
}

async function readAll(input: CliIO['stdin']): Promise<string> {
  if (!input) return ''
  const chunks: Buffer[] = []
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}
