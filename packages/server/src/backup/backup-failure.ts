/**
 * A backup, restore or move that could not be done for a reason the operator can fix; the message
 * says which and what to do (exit status 1, like the CLI's other failures).
 */
export class BackupFailure extends Error {}
