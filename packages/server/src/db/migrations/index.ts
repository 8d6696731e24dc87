import type { Migration } from 'kysely/migration'
import * as graph from './0001-graph.ts'
import * as audit from './0002-audit.ts'
import * as search from './0003-search.ts'
import * as writes from './0004-writes.ts'
import * as webhooks from './0005-webhooks.ts'
import * as oauth from './0006-oauth.ts'
import * as aclIndexes from './0007-acl-indexes.ts'
import * as credentialBindings from './0008-credential-bindings.ts'
import * as trigram from './0009-trigram.ts'
import * as auditTransport from './0010-audit-transport.ts'
import * as titleWords from './0011-title-words.ts'
import * as auditWeb from './0012-audit-web.ts'
import * as webSessions from './0013-web-sessions.ts'
import * as changePositions from './0014-change-positions.ts'
import * as fencedCredentials from './0015-fenced-credentials.ts'
import * as madeWith from './0016-made-with.ts'
import * as changeNotifications from './0017-change-notifications.ts'

/** Every migration, in order. Names sort; a migration is never edited once it has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-graph': graph,
  '0002-audit': audit,
  '0003-search': search,
  '0004-writes': writes,
  '0005-webhooks': webhooks,
  '0006-oauth': oauth,
  '0007-acl-indexes': aclIndexes,
  '0008-credential-bindings': credentialBindings,
  '0009-trigram': trigram,
  '0010-audit-transport': auditTransport,
  '0011-title-words': titleWords,
  '0012-audit-web': auditWeb,
  '0013-web-sessions': webSessions,
  '0014-change-positions': changePositions,
  '0015-fenced-credentials': fencedCredentials,
  '0016-made-with': madeWith,
  '0017-change-notifications': changeNotifications,
}
