import Type from 'typebox'
import { Nullable, PagingQuery, RecordBase } from '../../http/schemas.ts'

/** The canvas record (contract §6): metadata only, no canvas body in v1. */
export const CanvasRecord = Type.Object({
  ...RecordBase,
  type: Type.Literal('canvas'),
  title: Type.String(),
  summary: Type.String(),
  project_id: Nullable(Type.String()),
  visibility: Type.Enum(['project', 'private']),
  owner_id: Nullable(Type.String()),
  links: Type.Array(Type.String(), {
    description: 'Linked resources the caller may open, of types the token may read, in order.',
  }),
})

/** Filters of `GET /v1/canvases`. */
export const ListCanvasesQuery = Type.Object(
  {
    ...PagingQuery,
    project_id: Type.Optional(Type.String({ description: 'Only canvases of this project.' })),
  },
  { additionalProperties: false },
)
