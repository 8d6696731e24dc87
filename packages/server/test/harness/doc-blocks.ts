import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startProcess } from './cli.ts'

/** The repository's root, where a reader of the docs runs their commands. */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/**
 * The shell blocks of a page of docs/, for a test that runs them as written: each is looked up
 * by a piece of its text, and the test can ask at its end which blocks it never ran.
 */
export class DocBlocks {
  readonly page: string
  readonly #blocks: string[]
  readonly #used = new Set<string>()

  constructor(name: string) {
    this.page = `docs/${name}`
    const text = readFileSync(join(ROOT, this.page), 'utf8')
    this.#blocks = [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '')
  }

  /** The one block that contains `text`; the test fails if there is none, or more than one. */
  block(text: string): string {
    const found = this.#blocks.filter((candidate) => candidate.includes(text))
    assert.equal(found.length, 1, `${this.page} has one block with ${text}`)
    const [only] = found as [string]
    this.#used.add(only)
    return only
  }

  /** The blocks no `block` call returned: commands of the page that no test follows. */
  unused(): string[] {
    return this.#blocks.filter((candidate) => !this.#used.has(candidate))
  }
}

/**
 * Runs a script in `sh` from the repository's root, as a reader pastes it in a terminal, with
 * only the environment given; its standard output and error when it exits with status 0.
 */
export async function runShell(script: string, env: Record<string, string>): Promise<string> {
  const started = startProcess('sh', ['-c', script], { cwd: ROOT, env })
  const code = await started.exit(60_000)
  assert.equal(code, 0, `${script}\n${started.output()}`)
  return started.output()
}
