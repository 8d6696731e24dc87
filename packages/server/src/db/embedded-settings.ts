import fs from 'node:fs'
import { PGlite } from '@electric-sql/pglite'

/**
 * PGlite's start parameters with a smaller buffer cache. PGlite touches all of shared_buffers at
 * start and its WASM heap never shrinks, so PostgreSQL's default cache stays resident however
 * small the workspace; a smaller one saves memory at every size (bench/HISTORY.md, "Memory").
 * Pages that miss it are still in the operating system's file cache. PGlite's defaults turn
 * fsync off (`-F`): EMBEDDED_START_PARAMS keep that, for an initdb or a copy in memory;
 * `durableStartParams` turn it on.
 */
export const EMBEDDED_START_PARAMS: string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=32MB',
]

/**
 * The start parameters of a data folder whose acknowledged writes must survive the machine's
 * crash, not only the process's: fsync on, and the WAL synced by `fsync()` (PGlite's `fdatasync`
 * does nothing; its `fsync` reaches the file system once `makeFsyncReal` has run).
 */
export function durableStartParams(): string[] {
  return [
    ...EMBEDDED_START_PARAMS.filter((param) => param !== '-F'),
    '-c',
    'fsync=on',
    '-c',
    'wal_sync_method=fsync',
  ]
}

interface EmscriptenNodeFs {
  stream_ops: { fsync?: (stream: { nfd?: number }) => number }
}

/**
 * Makes PostgreSQL's fsync reach the disk. PGlite's files go through Emscripten's NODEFS, whose
 * streams have no fsync: PostgreSQL's calls return at once having synced nothing. This gives
 * them one that syncs the real file, so a commit is on disk when it is acknowledged.
 */
export function makeFsyncReal(pglite: PGlite): void {
  const nodefs = (pglite as unknown as { Module?: { NODEFS?: EmscriptenNodeFs } }).Module?.NODEFS
  if (!nodefs) throw new Error('PGlite exposes no NODEFS: its writes cannot be made durable.')
  nodefs.stream_ops.fsync = (stream) => {
    // Through node:fs's object, not a binding taken at load: what wraps it (a test) sees it.
    if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd)
    return 0
  }
}
