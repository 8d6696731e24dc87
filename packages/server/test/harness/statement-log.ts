import {
  AliasNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
} from 'kysely'

/**
 * Watches the statements an app sends through Kysely, without changing them: how many, and the
 * text of raw ones (`sql\`…\``), so a test can count the statements of one kind that a moment
 * costs. Built queries are recorded as their kind and the table they read or write first
 * (`SelectQueryNode tasks`).
 */
export class StatementLog implements KyselyPlugin {
  readonly #seen: string[] = []

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node
    this.#seen.push(node.kind === 'RawNode' ? node.sqlFragments.join('?') : describe(node))
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

// A built query's kind and its first table, when it names one.
function describe(node: RootOperationNode): string {
  const table =
    node.kind === 'SelectQueryNode'
      ? node.from?.froms[0]
      : node.kind === 'InsertQueryNode'
        ? node.into
        : node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode'
          ? node.kind === 'UpdateQueryNode'
            ? node.table
            : node.from.froms[0]
          : undefined
  const name = table ? tableName(table) : undefined
  return name ? `${node.kind} ${name}` : node.kind
}

function tableName(node: OperationNode): string | undefined {
  if (TableNode.is(node)) return node.table.identifier.name
  if (AliasNode.is(node)) return tableName(node.node)
  return undefined
}
