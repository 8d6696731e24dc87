/** A place in a walked JSON value: its parent's place and its key (or index) there. */
export interface WalkedPlace {
  readonly parent: WalkedPlace | null
  readonly key: string
}

/**
 * The JSON Pointer of a place (RFC 6901: `~` and `/` in a key are escaped, as Ajv does in the
 * paths of validation errors). Walks keep parents rather than paths, so a deep value costs no
 * path strings until one is reported.
 */
export function pointerOf(place: WalkedPlace): string {
  const keys: string[] = []
  for (let at: WalkedPlace | null = place; at?.parent; at = at.parent)
    keys.push(at.key.replaceAll('~', '~0').replaceAll('/', '~1'))
  return keys
    .reverse()
    .map((key) => `/${key}`)
    .join('')
}
