/** A path with each id escaped, so an id can never reach another route. */
export function pathOf(strings: TemplateStringsArray, ...ids: string[]): string {
  return strings.reduce(
    (path, part, i) => path + part + (i < ids.length ? encodeURIComponent(ids[i] as string) : ''),
    '',
  )
}
