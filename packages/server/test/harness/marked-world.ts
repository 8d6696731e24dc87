import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { ID_PREFIX } from '../../src/lib/ids.ts'
import type { World } from './oracle.ts'

/** A bundle whose every title, name and text carries a marker of its own, and what each marks. */
export interface MarkedBundle {
  bundle: Bundle
  /** Marker → the bundle key of what it was written into. */
  markers: Map<string, string>
}

const MARKER = /mk\d+x/g
// The random strings the service hands out: ids (a prefix and 26 characters of Crockford's
// base32, bare or inside URLs) and paging cursors (one word of 40 or more base64url characters).
// Both alphabets hold m, k, x and the digits: about one id in 3,000 spells some `mk…x`.
const ID = new RegExp(`\\b(?:${Object.values(ID_PREFIX).join('|')})_[0-9a-z]{26}\\b`, 'g')
const CURSOR = /(?<![\w-])[\w-]{40,}(?![\w-])/g

/**
 * Writes a unique marker into every name, title and text of a bundle (projects, canvases, tasks,
 * objectives and key results, comments, people, teams, integrations), so that a test can tell
 * from any answer, by its text alone, which resources it names.
 */
export function markBundle(bundle: Bundle): MarkedBundle {
  const markers = new Map<string, string>()
  const mark = (key: string, text: string) => {
    const marker = `mk${markers.size}x`
    markers.set(marker, key)
    return `${text} ${marker}`.trim()
  }
  const marked: Bundle = {
    ...bundle,
    people: bundle.people.map((p) => ({ ...p, name: mark(p.key, p.name) })),
    teams: bundle.teams?.map((t) => ({ ...t, name: mark(t.key, t.name) })),
    integrations: bundle.integrations?.map((i) => ({ ...i, name: mark(i.key, i.name) })),
    projects: bundle.projects?.map((p) => ({
      ...p,
      name: mark(p.key, p.name),
      description: mark(p.key, p.description ?? ''),
    })),
    canvases: bundle.canvases?.map((c) => ({
      ...c,
      title: mark(c.key, c.title),
      summary: mark(c.key, c.summary ?? ''),
    })),
    tasks: bundle.tasks?.map((t) => ({
      ...t,
      title: mark(t.key, t.title),
      description: mark(t.key, t.description ?? ''),
    })),
    okrs: bundle.okrs?.map((o) => ({
      ...o,
      title: mark(o.key, o.title),
      key_results: o.key_results.map((kr) => ({ ...kr, title: mark(kr.key, kr.title) })),
    })),
    comments: bundle.comments?.map((c) => ({ ...c, body: mark(c.key, c.body) })),
  }
  return { bundle: marked, markers }
}

/**
 * The markers an answer's text contains. Ids and cursors are left out first: their random
 * characters name nothing, yet now and then spell a marker (`act_5zk1ta73t4rkjs5ywevmk3xbmr`
 * holds `mk3x`), which read as a leak of whatever that marker was written into.
 */
export function markersIn(text: string): string[] {
  const words = text.replace(ID, ' ').replace(CURSOR, ' ')
  return [...new Set(words.match(MARKER) ?? [])]
}

/** The readable type (docs/api.md, "Scopes") of what a bundle key names. */
export function typeOfKey(world: World, key: string): string {
  if (world.projects.has(key)) return 'project'
  if (world.canvases.has(key)) return 'canvas'
  if (world.tasks.has(key)) return 'task'
  if (world.comments.has(key)) return 'comment'
  if (world.roles.has(key) || world.teams.has(key) || world.integrations.has(key)) return 'person'
  // Objectives and their key results.
  return 'okr'
}

/**
 * The readable types a list of read scopes grants (people:read covers people, teams, integrations).
 */
export function typesOfScopes(scopes: readonly string[]): Set<string> {
  return new Set(
    scopes.map((scope) => (scope === 'people:read' ? 'person' : scope.replace(/:read$/, ''))),
  )
}
