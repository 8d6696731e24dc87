import Type from 'typebox'
import { PagingQuery } from '../../api/schemas.ts'

/** A visible neighbour of a resource. */
export const LinkItem = Type.Object(
  {
    rel: Type.String({
      description:
        'How it relates: project, parent, subtask, canvas, owner, member, link, linked_from, …',
    }),
    id: Type.String(),
    type: Type.String(),
    title: Type.String(),
    url: Type.String(),
    api_url: Type.String(),
  },
  { title: 'Link' },
)

/** Paging of links. */
export const ListLinksQuery = Type.Object({ ...PagingQuery }, { additionalProperties: false })
