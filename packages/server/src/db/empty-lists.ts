import {
  type BinaryOperationNode,
  type KyselyPlugin,
  OperationNodeTransformer,
  OperatorNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PrimitiveValueListNode,
  type QueryResult,
  RawNode,
  type RootOperationNode,
  type UnknownRow,
  ValueListNode,
} from 'kysely'

/**
 * `x in ()` is a syntax error in SQL, and a list of ids is empty whenever its caller belongs to
 * nothing (a guest in no team, a key that reads no kind). Rather than trusting every query to
 * check its lists first, the one connection every query goes through rewrites a comparison with
 * an empty list to what it means: `x in ()` is false and `x not in ()` is true. So an empty list
 * can never reach the database, whichever query builds it.
 */
export class EmptyListsPlugin implements KyselyPlugin {
  readonly #transformer = new EmptyListTransformer()

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId)
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result
  }
}

class EmptyListTransformer extends OperationNodeTransformer {
  protected override transformBinaryOperation(node: BinaryOperationNode): BinaryOperationNode {
    const operator = OperatorNode.is(node.operator) ? node.operator.operator : null
    if ((operator === 'in' || operator === 'not in') && isEmptyList(node.rightOperand)) {
      // A raw `false` or `true` stands where the comparison stood: any expression may be there.
      return RawNode.createWithSql(operator === 'in' ? 'false' : 'true') as never
    }
    return super.transformBinaryOperation(node)
  }
}

function isEmptyList(node: BinaryOperationNode['rightOperand']): boolean {
  if (PrimitiveValueListNode.is(node)) return node.values.length === 0
  if (ValueListNode.is(node)) return node.values.length === 0
  return false
}
