import type { ColumnType, Generated } from 'kysely'

/** A timestamptz column: read as a Date, written as a Date or an RFC 3339 string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>

/** A timestamptz column with a database default. */
export type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** A date column, read and written as `YYYY-MM-DD` (see the type parser in connect.ts). */
export type DateOnly = string

/** A column computed by the database (generated column); never written. */
export type Computed<T> = ColumnType<T, never, never>

export type { Generated }
