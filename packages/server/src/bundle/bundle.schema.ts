import Type, { type Static } from 'typebox'

/*
 * The `workgraph.bundle/v1` format (docs/bundles.md). Every object has a `key`, unique in the
 * bundle, and refers to others by key. Unknown fields are errors, so a typo never passes silently.
 */

const Key = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:-]+$' })
const Ref = Key
const Name = (max: number) => Type.String({ minLength: 1, maxLength: max })
const Text = (max: number) => Type.String({ maxLength: max })
const Timestamp = Type.String({ format: 'date-time' })
const Strict = { additionalProperties: false } as const

/** A project member or a canvas share: exactly one of a person, a team or an integration. */
const PrincipalRef = Type.Union(
  [
    Type.Object({ person: Ref }, Strict),
    Type.Object({ team: Ref }, Strict),
    Type.Object({ integration: Ref }, Strict),
  ],
  { description: '{ "person": key }, { "team": key } or { "integration": key }' },
)

/** An optional reference that may also be null. */
const OptionalRef = Type.Optional(Type.Union([Ref, Type.Null()], { description: 'a key or null' }))

const Person = Type.Object(
  {
    key: Key,
    name: Name(200),
    email: Type.String({ format: 'email', maxLength: 320 }),
    role: Type.Enum(['owner', 'admin', 'member', 'guest']),
    password: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
  },
  Strict,
)

const Team = Type.Object(
  { key: Key, name: Name(200), members: Type.Optional(Type.Array(Ref)) },
  Strict,
)

const Integration = Type.Object({ key: Key, name: Name(200) }, Strict)

const Project = Type.Object(
  {
    key: Key,
    name: Name(500),
    description: Type.Optional(Text(20000)),
    status: Type.Enum(['planned', 'active', 'paused', 'completed', 'archived']),
    visibility: Type.Enum(['workspace', 'private']),
    owner: Ref,
    members: Type.Optional(Type.Array(PrincipalRef)),
    created_at: Type.Optional(Timestamp),
  },
  Strict,
)

const Canvas = Type.Object(
  {
    key: Key,
    title: Name(500),
    summary: Type.Optional(Text(5000)),
    project: OptionalRef,
    visibility: Type.Enum(['project', 'private']),
    owner: Ref,
    shared_with: Type.Optional(
      Type.Array(
        Type.Union([Ref, PrincipalRef], {
          description: 'a key, or { "person" | "team" | "integration": key }',
        }),
      ),
    ),
    links: Type.Optional(Type.Array(Ref)),
    created_at: Type.Optional(Timestamp),
  },
  Strict,
)

const Task = Type.Object(
  {
    key: Key,
    title: Name(500),
    description: Type.Optional(Text(20000)),
    status: Type.Enum(['todo', 'in_progress', 'blocked', 'done']),
    due: Type.Optional(
      Type.Union([Type.String({ format: 'date' }), Type.Null()], {
        description: 'a date (YYYY-MM-DD) or null',
      }),
    ),
    project: OptionalRef,
    parent: OptionalRef,
    canvas: OptionalRef,
    assignee: OptionalRef,
    creator: Ref,
    created_at: Type.Optional(Timestamp),
    completed_at: Type.Optional(
      Type.Union([Timestamp, Type.Null()], { description: 'an RFC 3339 timestamp or null' }),
    ),
  },
  Strict,
)

const KeyResult = Type.Object(
  {
    key: Key,
    title: Name(500),
    start: Type.Optional(Type.Number()),
    target: Type.Number(),
    current: Type.Number(),
    unit: Type.Optional(Text(50)),
  },
  Strict,
)

const Okr = Type.Object(
  {
    key: Key,
    title: Name(500),
    session: Name(50),
    owner: Ref,
    team: OptionalRef,
    project: OptionalRef,
    visibility: Type.Enum(['workspace', 'private']),
    key_results: Type.Array(KeyResult, { minItems: 1 }),
    created_at: Type.Optional(Timestamp),
  },
  Strict,
)

const Checkin = Type.Object(
  {
    key: Key,
    key_result: Ref,
    author: Ref,
    value: Type.Number(),
    confidence: Type.Optional(
      Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
        description: 'a number from 0 to 1, or null',
      }),
    ),
    note: Type.Optional(Text(2000)),
    at: Timestamp,
  },
  Strict,
)

const Comment = Type.Object(
  {
    key: Key,
    on: Ref,
    author: Ref,
    body: Name(10000),
    parent: OptionalRef,
    at: Timestamp,
  },
  Strict,
)

const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1 })

const ApiKey = Type.Object(
  { key: Key, person: Ref, scopes: Scopes, name: Type.Optional(Text(200)) },
  Strict,
)

const WorkspaceToken = Type.Object(
  { key: Key, integration: Ref, scopes: Scopes, name: Type.Optional(Text(200)) },
  Strict,
)

const OAuthClient = Type.Object(
  {
    key: Key,
    name: Name(200),
    redirect_uris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1 }),
    public: Type.Boolean(),
  },
  Strict,
)

/** The whole bundle. */
export const BundleSchema = Type.Object(
  {
    format: Type.Literal('workgraph.bundle/v1'),
    workspace: Type.Object({ key: Key, name: Name(200), plan: Type.Optional(Name(50)) }, Strict),
    people: Type.Array(Person, { minItems: 1 }),
    teams: Type.Optional(Type.Array(Team)),
    integrations: Type.Optional(Type.Array(Integration)),
    projects: Type.Optional(Type.Array(Project)),
    canvases: Type.Optional(Type.Array(Canvas)),
    tasks: Type.Optional(Type.Array(Task)),
    okrs: Type.Optional(Type.Array(Okr)),
    checkins: Type.Optional(Type.Array(Checkin)),
    comments: Type.Optional(Type.Array(Comment)),
    api_keys: Type.Optional(Type.Array(ApiKey)),
    workspace_tokens: Type.Optional(Type.Array(WorkspaceToken)),
    oauth_clients: Type.Optional(Type.Array(OAuthClient)),
  },
  Strict,
)

/** A bundle that passed the schema (references not yet checked). */
export type Bundle = Static<typeof BundleSchema>
/** Entries of the bundle's lists. */
export type BundlePerson = Static<typeof Person>
export type BundleProject = Static<typeof Project>
export type BundleCanvas = Static<typeof Canvas>
export type BundleTask = Static<typeof Task>
export type BundleOkr = Static<typeof Okr>
export type BundleComment = Static<typeof Comment>
export type BundlePrincipalRef = Static<typeof PrincipalRef>
