import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { World } from './oracle.ts'

/** The random choices behind a hidden variant: new members and visibility flips, by index. */
export const variantChoices = fc.record({
  projectMembers: fc.array(fc.array(fc.nat(), { maxLength: 4 }), { maxLength: 4 }),
  flips: fc.array(fc.boolean(), { maxLength: 4 }),
  teamMembers: fc.array(fc.array(fc.nat(), { maxLength: 4 }), { maxLength: 3 }),
})

/** What `variantChoices` draws. */
export type VariantChoices = typeof variantChoices extends fc.Arbitrary<infer T> ? T : never

// Added to every hidden name and text, so that a hidden title that reaches an answer shows.
const MARK = ' (hidden variant)'

type Member = { person: string } | { team: string } | { integration: string }

/**
 * A copy of the bundle that differs from it only in what `who` cannot open: every project hidden
 * from `who` is renamed and may get other members and the other visibility, every hidden task,
 * canvas, objective and comment is reworded, every person hidden from `who` renamed, and teams
 * hidden from `who` may get other members. A change that the oracle says would show in what `who`
 * opens is not made, so `who` sees the two worlds alike, and every answer `who` gets must be alike.
 */
export function hiddenVariant(bundle: Bundle, who: string, choices: VariantChoices): Bundle {
  const world = new World(bundle)
  const hidden = (key: string) => !world.canOpen(who, key)
  let variant = structuredClone(bundle)
  const candidates: Member[] = [
    ...variant.people.filter((p) => p.key !== who).map((p) => ({ person: p.key })),
    ...(variant.teams ?? [])
      .filter((team) => !(team.members ?? []).includes(who))
      .map((team) => ({ team: team.key })),
    ...(variant.integrations ?? [])
      .filter((i) => i.key !== who)
      .map((i) => ({ integration: i.key })),
  ]
  const people = variant.people.filter((p) => p.key !== who).map((p) => p.key)
  // Each change is kept only when the oracle sees no difference for `who`.
  const tryChange = (change: (draft: Bundle) => void) => {
    const draft = structuredClone(variant)
    change(draft)
    if (sameView(world, new World(draft), who)) variant = draft
  }
  for (const [i, project] of (bundle.projects ?? []).entries()) {
    if (!hidden(project.key)) continue
    tryChange((draft) => {
      const p = draft.projects?.[i]
      if (!p) return
      p.name += MARK
      p.description = `${p.description ?? ''}${MARK}`
    })
    const picks = choices.projectMembers[i]
    if (picks && candidates.length > 0)
      tryChange((draft) => {
        const p = draft.projects?.[i]
        if (!p) return
        const members = picks.map((n) => candidates[n % candidates.length] as Member)
        p.members = [...new Map(members.map((m) => [Object.values(m)[0], m])).values()]
      })
    if (choices.flips[i])
      tryChange((draft) => {
        const p = draft.projects?.[i]
        if (p) p.visibility = p.visibility === 'private' ? 'workspace' : 'private'
      })
  }
  for (const [i, team] of (bundle.teams ?? []).entries()) {
    const picks = choices.teamMembers[i]
    if (!hidden(team.key) || !picks || people.length === 0) continue
    tryChange((draft) => {
      const t = draft.teams?.[i]
      if (t) t.members = [...new Set(picks.map((n) => people[n % people.length] as string))]
    })
  }
  tryChange((draft) => {
    for (const task of draft.tasks ?? []) if (hidden(task.key)) task.title += MARK
    for (const canvas of draft.canvases ?? []) if (hidden(canvas.key)) canvas.title += MARK
    for (const okr of draft.okrs ?? []) if (hidden(okr.key)) okr.title += MARK
    for (const comment of draft.comments ?? []) if (hidden(comment.key)) comment.body += MARK
    for (const person of draft.people) if (hidden(person.key)) person.name += MARK
  })
  return variant
}

/** Whether `who` may open exactly the same things in both worlds. */
export function sameView(a: World, b: World, who: string): boolean {
  const keys = new Set([...a.allKeys(), ...b.allKeys(), ...a.integrations, ...b.integrations])
  for (const key of keys) if (a.canOpen(who, key) !== b.canOpen(who, key)) return false
  return true
}
