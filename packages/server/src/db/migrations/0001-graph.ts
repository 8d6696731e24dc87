import { type Kysely, sql } from 'kysely'

/**
 * The whole work graph. Every table leads with `workspace_id` so the schema can be distributed by
 * workspace (Citus) without rewriting keys; foreign keys include it for the same reason.
 * Polymorphic actor columns (`creator_id`, `author_id`, `actor_id`) hold a person or an
 * integration id and are checked by the application, since a foreign key cannot name two tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
create table workspaces (
  id          text primary key,
  name        text not null,
  plan        text not null,
  settings    jsonb not null default '{}',
  -- bumped in every transaction that changes who may open what; keys the principal cache
  acl_epoch   bigint not null default 0,
  created_at  timestamptz(3) not null default now(),
  updated_at  timestamptz(3) not null default now()
);

-- A person is one member of one workspace (like a Slack account): the same email in two
-- workspaces is two people, each with its own role and password.
create table people (
  workspace_id  text not null references workspaces (id),
  id            text not null,
  name          text not null,
  email         text not null,
  role          text not null check (role in ('owner', 'admin', 'member', 'guest')),
  password_hash text,
  created_at    timestamptz(3) not null default now(),
  updated_at    timestamptz(3) not null default now(),
  primary key (workspace_id, id)
);
create unique index people_email_key on people (workspace_id, lower(email));
create index people_login_idx on people (lower(email));

create table teams (
  workspace_id text not null references workspaces (id),
  id           text not null,
  name         text not null,
  created_at   timestamptz(3) not null default now(),
  updated_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id)
);

create table team_members (
  workspace_id text not null,
  team_id      text not null,
  person_id    text not null,
  primary key (workspace_id, team_id, person_id),
  foreign key (workspace_id, team_id) references teams (workspace_id, id),
  foreign key (workspace_id, person_id) references people (workspace_id, id)
);
create index team_members_person_idx on team_members (workspace_id, person_id);

-- Non-human principals (bots, integrations). They see only what is shared with them.
create table integrations (
  workspace_id text not null references workspaces (id),
  id           text not null,
  name         text not null,
  created_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id)
);

create table projects (
  workspace_id text not null references workspaces (id),
  id           text not null,
  name         text not null,
  description  text not null default '',
  status       text not null check (status in ('planned', 'active', 'paused', 'completed', 'archived')),
  visibility   text not null check (visibility in ('workspace', 'private')),
  owner_id     text not null,
  created_at   timestamptz(3) not null default now(),
  updated_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id),
  foreign key (workspace_id, owner_id) references people (workspace_id, id)
);

-- A member is exactly one of a person, a team or an integration.
create table project_members (
  workspace_id   text not null,
  project_id     text not null,
  person_id      text,
  team_id        text,
  integration_id text,
  principal_id   text generated always as (coalesce(person_id, team_id, integration_id)) stored,
  check (num_nonnulls(person_id, team_id, integration_id) = 1),
  primary key (workspace_id, project_id, principal_id),
  foreign key (workspace_id, project_id) references projects (workspace_id, id),
  foreign key (workspace_id, person_id) references people (workspace_id, id),
  foreign key (workspace_id, team_id) references teams (workspace_id, id),
  foreign key (workspace_id, integration_id) references integrations (workspace_id, id)
);
create index project_members_principal_idx on project_members (workspace_id, principal_id);

create table canvases (
  workspace_id text not null references workspaces (id),
  id           text not null,
  title        text not null,
  summary      text not null default '',
  project_id   text,
  visibility   text not null check (visibility in ('project', 'private')),
  owner_id     text not null,
  created_at   timestamptz(3) not null default now(),
  updated_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id),
  foreign key (workspace_id, project_id) references projects (workspace_id, id),
  foreign key (workspace_id, owner_id) references people (workspace_id, id)
);
create index canvases_project_idx on canvases (workspace_id, project_id);

create table canvas_shares (
  workspace_id   text not null,
  canvas_id      text not null,
  person_id      text,
  team_id        text,
  integration_id text,
  principal_id   text generated always as (coalesce(person_id, team_id, integration_id)) stored,
  check (num_nonnulls(person_id, team_id, integration_id) = 1),
  primary key (workspace_id, canvas_id, principal_id),
  foreign key (workspace_id, canvas_id) references canvases (workspace_id, id),
  foreign key (workspace_id, person_id) references people (workspace_id, id),
  foreign key (workspace_id, team_id) references teams (workspace_id, id),
  foreign key (workspace_id, integration_id) references integrations (workspace_id, id)
);

-- Links from a canvas to any resource of its workspace (task, project, canvas, objective).
create table canvas_links (
  workspace_id text not null,
  canvas_id    text not null,
  target_id    text not null,
  position     integer not null,
  primary key (workspace_id, canvas_id, target_id),
  foreign key (workspace_id, canvas_id) references canvases (workspace_id, id)
);
create index canvas_links_target_idx on canvas_links (workspace_id, target_id);

create table tasks (
  workspace_id text not null references workspaces (id),
  id           text not null,
  title        text not null,
  description  text not null default '',
  status       text not null check (status in ('todo', 'in_progress', 'blocked', 'done')),
  due          date,
  assignee_id  text,
  parent_id    text,
  -- a subtask's project is its parent's: the application keeps them equal
  project_id   text,
  canvas_id    text,
  creator_id   text not null,
  completed_at timestamptz(3),
  created_at   timestamptz(3) not null default now(),
  updated_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id),
  foreign key (workspace_id, assignee_id) references people (workspace_id, id),
  foreign key (workspace_id, parent_id) references tasks (workspace_id, id),
  foreign key (workspace_id, project_id) references projects (workspace_id, id),
  foreign key (workspace_id, canvas_id) references canvases (workspace_id, id)
);
create index tasks_project_idx on tasks (workspace_id, project_id, created_at desc, id desc);
create index tasks_assignee_idx on tasks (workspace_id, assignee_id);
create index tasks_parent_idx on tasks (workspace_id, parent_id);
create index tasks_canvas_idx on tasks (workspace_id, canvas_id);

create table objectives (
  workspace_id text not null references workspaces (id),
  id           text not null,
  title        text not null,
  session      text not null,
  owner_id     text not null,
  team_id      text,
  project_id   text,
  visibility   text not null check (visibility in ('workspace', 'private')),
  progress     double precision not null default 0,
  created_at   timestamptz(3) not null default now(),
  updated_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id),
  foreign key (workspace_id, owner_id) references people (workspace_id, id),
  foreign key (workspace_id, team_id) references teams (workspace_id, id),
  foreign key (workspace_id, project_id) references projects (workspace_id, id)
);
create index objectives_project_idx on objectives (workspace_id, project_id);

create table key_results (
  workspace_id text not null,
  id           text not null,
  objective_id text not null,
  title        text not null,
  start        double precision not null default 0,
  target       double precision not null,
  current      double precision not null,
  unit         text not null default '',
  position     integer not null,
  created_at   timestamptz(3) not null default now(),
  updated_at   timestamptz(3) not null default now(),
  check (target <> start),
  primary key (workspace_id, id),
  foreign key (workspace_id, objective_id) references objectives (workspace_id, id)
);
create index key_results_objective_idx on key_results (workspace_id, objective_id, position);

create table checkins (
  workspace_id  text not null,
  id            text not null,
  key_result_id text not null,
  objective_id  text not null,
  value         double precision not null,
  confidence    double precision check (confidence between 0 and 1),
  note          text not null default '',
  author_id     text not null,
  created_at    timestamptz(3) not null default now(),
  primary key (workspace_id, id),
  foreign key (workspace_id, key_result_id) references key_results (workspace_id, id),
  foreign key (workspace_id, objective_id) references objectives (workspace_id, id)
);
create index checkins_key_result_idx on checkins (workspace_id, key_result_id, created_at desc);

-- Threaded comments on any resource; a reply names its parent and shares its resource.
create table comments (
  workspace_id text not null references workspaces (id),
  id           text not null,
  resource_id  text not null,
  parent_id    text,
  author_id    text not null,
  body         text not null,
  created_at   timestamptz(3) not null default now(),
  updated_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id),
  foreign key (workspace_id, parent_id) references comments (workspace_id, id)
);
create index comments_resource_idx on comments (workspace_id, resource_id, created_at, id);

-- Append-only. Titles are never stored here: readers join the current subject.
create table activity (
  workspace_id text not null references workspaces (id),
  id           text not null,
  verb         text not null,
  actor_id     text not null,
  subject_id   text not null,
  subject_type text not null,
  -- a record inside the subject that follows its visibility (the check-in of okr.checkin)
  object_id    text,
  project_id   text,
  -- every other resource the entry mentions; the entry is visible only if all of them are
  ref_ids      text[] not null default '{}',
  changes      jsonb not null default '{}',
  created_at   timestamptz(3) not null default now(),
  primary key (workspace_id, id)
);
create index activity_feed_idx on activity (workspace_id, created_at desc, id desc);
create index activity_subject_idx on activity (workspace_id, subject_id, created_at desc);
create index activity_project_idx on activity (workspace_id, project_id, created_at desc, id desc);

-- One row per readable resource, written in the same transaction as the resource: who may open
-- it (ws_visible: every non-guest member; acl: principal ids, any one of which opens it) and its
-- own searchable text (never a parent's or a neighbour's).
create table resource_index (
  workspace_id text not null references workspaces (id),
  id           text not null,
  type         text not null check (type in ('project', 'canvas', 'task', 'okr', 'comment')),
  project_id   text,
  title        text not null,
  body         text not null default '',
  ws_visible   boolean not null,
  acl          text[] not null,
  created_at   timestamptz(3) not null,
  updated_at   timestamptz(3) not null,
  tsv          tsvector generated always as (
    setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('simple', title), 'A') ||
    setweight(to_tsvector('english', body), 'B') || setweight(to_tsvector('simple', body), 'B')
  ) stored,
  primary key (workspace_id, id)
);
create index resource_index_tsv_idx on resource_index using gin (tsv);
create index resource_index_acl_idx on resource_index using gin (acl);
-- lists walk these newest first and stop after one page of visible rows
create index resource_index_created_idx on resource_index (workspace_id, type, created_at desc, id desc);
create index resource_index_updated_idx on resource_index (workspace_id, type, updated_at desc, id desc);
create index resource_index_project_idx on resource_index (workspace_id, project_id);

-- API keys (a person's) and workspace tokens (an integration's). Only a SHA-256 of the secret is
-- kept. The hash is unique across workspaces: a presented token must find its workspace.
create table tokens (
  workspace_id   text not null references workspaces (id),
  id             text not null,
  kind           text not null check (kind in ('api_key', 'workspace_token')),
  person_id      text,
  integration_id text,
  name           text not null default '',
  scopes         text[] not null,
  secret_hash    bytea not null,
  last4          text not null,
  created_at     timestamptz(3) not null default now(),
  last_used_at   timestamptz(3),
  expires_at     timestamptz(3),
  revoked_at     timestamptz(3),
  check ((kind = 'api_key') = (person_id is not null)),
  check ((kind = 'workspace_token') = (integration_id is not null)),
  primary key (workspace_id, id),
  foreign key (workspace_id, person_id) references people (workspace_id, id),
  foreign key (workspace_id, integration_id) references integrations (workspace_id, id)
);
create unique index tokens_secret_hash_key on tokens (secret_hash);

create table oauth_clients (
  workspace_id  text not null references workspaces (id),
  id            text not null,
  name          text not null,
  redirect_uris text[] not null,
  public        boolean not null,
  secret_hash   bytea,
  created_at    timestamptz(3) not null default now(),
  check (public = (secret_hash is null)),
  primary key (workspace_id, id)
);
create unique index oauth_clients_id_key on oauth_clients (id);
`)
    .execute(db)
}
