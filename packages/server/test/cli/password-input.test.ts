import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { test } from 'node:test'
import { promptHidden, type TerminalInput } from '../../src/cli/password-input.ts'
import { runCaptured } from '../harness/cli.ts'

// `user set-password` on a terminal: asked twice, never echoed (docs/dashboard.md, "Signing in").

/** A terminal that types `keys` once it is read, and records its raw mode. */
function terminal(
  ...typed: string[]
): TerminalInput & AsyncIterable<string> & { modes: boolean[] } {
  const events = new EventEmitter()
  const modes: boolean[] = []
  return {
    isTTY: true,
    modes,
    setRawMode: (raw: boolean) => modes.push(raw),
    setEncoding: () => {},
    resume: () => {
      const next = typed.shift()
      if (next !== undefined) setImmediate(() => events.emit('data', next))
    },
    pause: () => {},
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
    async *[Symbol.asyncIterator]() {
      yield* []
      throw new Error('a terminal is not read to its end')
    },
  }
}

test('a hidden prompt reads a line without echoing it; Backspace erases, Ctrl-C cancels', async () => {
  let shown = ''
  const output = { write: (text: string) => (shown += text) }
  const input = terminal('secrex\u007ft\r')
  assert.equal(await promptHidden(input, output, 'Password: '), 'secret')
  assert.equal(shown, 'Password: \n')
  assert.deepEqual(input.modes, [true, false])
  await assert.rejects(promptHidden(terminal('abc\u0003'), output, 'Password: '), /Cancelled/)
})

test('set-password on a terminal asks twice, and two different answers set nothing', async () => {
  const differ = await runCaptured(
    ['user', 'set-password', '--email', 'nobody@example.test', '--data', '/nonexistent'],
    {},
    terminal('a long passphrase\r', 'another passphrase\r'),
  )
  assert.equal(differ.code, 1)
  assert.match(differ.stderr, /New password for nobody@example\.test: \nThe same again: \n/)
  assert.match(differ.stderr, /The two passwords differ: nothing was set/)
  assert.doesNotMatch(differ.stderr + differ.stdout, /passphrase/)
})
