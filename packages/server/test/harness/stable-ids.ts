import { createHash } from 'node:crypto'
import type { IdMaker } from '../../src/bundle/bundle-plan.ts'
import { ID_PREFIX, newId } from '../../src/lib/ids.ts'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

/**
 * Ids derived from bundle keys, so that two imports of related worlds give their shared objects
 * equal ids. Each import is still a workspace of its own, with a fresh workspace id; other ids may
 * repeat across workspaces, since every key includes the workspace.
 */
export function stableIds(seed: string): IdMaker {
  return (kind, key) => {
    if (kind === 'workspace') return newId('workspace')
    const digest = createHash('sha256').update(`${seed}:${kind}:${key}`).digest()
    let body = ''
    for (let i = 0; i < 26; i++) body += ALPHABET.charAt((digest[i] as number) & 31)
    return `${ID_PREFIX[kind]}_${body}`
  }
}
