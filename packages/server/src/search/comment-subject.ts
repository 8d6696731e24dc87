import { STOP_WORDS } from './question-vocabulary.ts'

/*
 * "Comments on the type scale task", "any discussion on the pricing page", "what did Vera comment
 * on the research notes": a question about what was said on a thing named by its title. "On"
 * names the thing; "about" stays words to find in the comments ("comments about staging").
 */

// Words that say the question is about comments, a few words before "on".
const SAYING =
  /^(comment|comments|commented|commenting|discussion|discussions|discussed|said|say|thread|threads|replies|replied|feedback|flagged|raised)$/

// Words for a kind after "on" ("the type scale task"): they say what it is, not its title.
const KIND_NOUNS: Record<string, string> = {
  task: 'task',
  tasks: 'task',
  ticket: 'task',
  issue: 'task',
  bug: 'task',
  doc: 'canvas',
  docs: 'canvas',
  document: 'canvas',
  canvas: 'canvas',
  page: 'canvas',
  project: 'project',
  objective: 'okr',
  okr: 'okr',
  goal: 'okr',
}

/** The title words of what a question asks comments on, and the words that frame them. */
export interface CommentSubject {
  words: string[]
  /** "comment(s)", "discussion", "on" and the kind's noun, by index. */
  frame: number[]
  /** The kind the noun names ("the type scale task"); null when none does. */
  kind: string | null
}

/**
 * What a question asks the comments on: the words after an "on" that follows, within three
 * words, a word for comments or saying; function words and a kind's noun left out, the noun
 * saying what kind it is. Null when the question has no such "on", or nothing follows it.
 */
export function readCommentSubject(words: string[]): CommentSubject | null {
  for (let on = 1; on < words.length; on++) {
    if (words[on] !== 'on') continue
    const saying = words
      .slice(Math.max(0, on - 3), on)
      .map((word, k) => (SAYING.test(word) ? Math.max(0, on - 3) + k : -1))
      .filter((at) => at >= 0)
    if (saying.length === 0) continue
    const title: number[] = []
    const nouns: number[] = []
    for (let i = on + 1; i < words.length; i++) {
      const word = words[i] as string
      if (Object.hasOwn(KIND_NOUNS, word)) nouns.push(i)
      else if (!STOP_WORDS.has(word)) title.push(i)
    }
    if (title.length === 0) return null
    const last = nouns.at(-1)
    return {
      words: title.map((i) => words[i] as string),
      frame: [...saying, on, ...nouns],
      kind: last === undefined ? null : (KIND_NOUNS[words[last] as string] ?? null),
    }
  }
  return null
}
