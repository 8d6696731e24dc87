/** Notified once per statement that inserts outbox events (migration 0005); no payload. */
export const OUTBOX_CHANNEL = 'workgraph_outbox'

/**
 * Notified at the commit of each statement that records activity, once per workspace it wrote
 * in, with the workspace's id as payload (migration 0017): long polls of that workspace wake.
 */
export const CHANGES_CHANNEL = 'workgraph_changes'
