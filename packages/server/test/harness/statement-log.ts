import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'

/**
 * Watches the statements an app sends through Kysely, without changing them: how many, and the
 * text of raw ones (`sql\`…\``), so a test can count the statements of one kind that a moment
 * costs. Built queries are counted with their kind only.
 */
export class StatementLog implements KyselyPlugin {
  readonly #seen: string[] = []

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node
    this.#seen.push(node.kind === 'RawNode' ? node.sqlFragments.join('?') : node.kind)
    return node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }

  /** Statements sent since the last `clear`. */
  get statements(): readonly string[] {
    return this.#seen
  }

  /** How many of them contain `text`. */
  count(text: string): number {
    return this.#seen.filter((statement) => statement.includes(text)).length
  }

  /** Forgets what was sent so far. */
  clear(): void {
    this.#seen.length = 0
  }
}
