import Type from 'typebox'
import { Nullable, PagingQuery, RecordBase } from '../../api/schemas.ts'

/** The canvas record (docs/api.md, "Records"): metadata only, no canvas body in v1. */
export const CanvasRecord = Type.Object(
  {
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
  },
  { title: 'Canvas' },
)

/** Filters of `GET /v1/canvases`. */
export const ListCanvasesQuery = Type.Object(
  {
    ...PagingQuery,
    project_id: Type.Optional(Type.String({ description: 'Only canvases of this project.' })),
  },
  { additionalProperties: false },
)

/** The body of `POST /v1/canvases`: metadata only (v1 has no canvas body). */
export const CreateCanvasBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500 }),
    summary: Type.Optional(Type.String({ maxLength: 10_000 })),
    project_id: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    visibility: Type.Optional(
      Type.Enum(['project', 'private'], {
        default: 'project',
        description:
          '`project`: whoever may open the project (without one, every non-guest member). `private`: you alone until shared.',
      }),
    ),
  },
  { title: 'CreateCanvasRequest', additionalProperties: false },
)

/** The body of `PATCH /v1/canvases/:id`: title, summary and links, at least one of them. */
export const UpdateCanvasBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    summary: Type.Optional(Type.String({ maxLength: 10_000 })),
    links: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 100,
        uniqueItems: true,
        description:
          'The projects, canvases, tasks and OKRs the canvas links to, in order, each once. Links you cannot open are kept, after these.',
      }),
    ),
  },
  { title: 'UpdateCanvasRequest', additionalProperties: false, minProperties: 1 },
)
