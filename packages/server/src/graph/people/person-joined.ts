import { bumpAclEpoch } from '../../access/resource-index.ts'
import type { AuditActor } from '../../audit/audit-writer.ts'
import type { Db } from '../../db/database.ts'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import { recordDirectoryChange } from '../../writes/directory-change.ts'
import { presentPerson } from './people.present.ts'
import type { PersonRow } from './people.queries.ts'

/** A person as inserted on joining: no teams yet, and active. */
export type JoinedPerson = Omit<PersonRow, 'team_ids' | 'deactivated_at'>

/**
 * Records that a person joined (an invitation's link, or single sign-on): `person.joined`,
 * audited as the person's own act through the credential they joined with, in the stream and
 * delivered; `how` says what let them in. The directory changed, so principals are read again
 * under a new epoch (guests see the people of their projects; a new person is in none yet).
 */
export async function recordPersonJoined(
  context: { trx: Db; actor: AuditActor; now: Date; urls: UrlBuilder },
  person: JoinedPerson,
  how: Record<string, unknown>,
): Promise<void> {
  const { trx, actor, now, urls } = context
  await recordDirectoryChange(
    { trx, actor, now },
    {
      verb: 'person.joined',
      subjectId: person.id,
      subjectType: 'person',
      audit: {
        resourceId: person.id,
        resourceType: 'person',
        before: null,
        after: { name: person.name, email: person.email, role: person.role, ...how },
      },
      eventObject: presentPerson({ ...person, deactivated_at: null, team_ids: [] }, false, urls),
    },
  )
  await bumpAclEpoch(trx, person.workspace_id)
}
