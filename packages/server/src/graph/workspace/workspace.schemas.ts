import Type from 'typebox'
import { RecordBase } from '../../api/schemas.ts'

/** The workspace record (docs/api.md, "Records"). */
export const WorkspaceRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('workspace'),
    name: Type.String(),
    plan: Type.String(),
    member_count: Type.Integer({ description: 'People in the workspace that the caller can see.' }),
    settings: Type.Object(
      { timezone: Type.Optional(Type.String()), locale: Type.Optional(Type.String()) },
      { description: 'The public subset of the workspace settings.' },
    ),
  },
  { title: 'Workspace' },
)
