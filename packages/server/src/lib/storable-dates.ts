/*
 * The dates and times the service accepts (docs/api.md, "Dates and times"): those both engines
 * store and JavaScript reads back exactly, years 0001 to 9999. PostgreSQL has no year 0 (a day
 * written 0000-01-01 fails in the database, after every check that only looked at its shape),
 * and a time beyond 9999 is written with six digits. Every schema, query parameter, search
 * filter and question reads a date through here.
 */

/** The first day accepted. */
export const FIRST_DAY = '0001-01-01'
/** The last day accepted. */
export const LAST_DAY = '9999-12-31'

const EARLIEST = Date.parse(`${FIRST_DAY}T00:00:00.000Z`)
const LATEST = Date.parse(`${LAST_DAY}T23:59:59.999Z`)
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
// RFC 3339's date-time: a day, `T`, a time with optional fraction, and `Z` or an offset. The
// offset is at most 15:59 either way, PostgreSQL's limit (RFC 3339 allows 23:59; no place on
// Earth is more than 14 hours from UTC).
const TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt ]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,9})?([Zz]|[+-](0\d|1[0-5]):[0-5]\d)$/

/** A real calendar day written `YYYY-MM-DD`, from 0001-01-01 to 9999-12-31. */
export function isStorableDay(value: string): boolean {
  const match = DAY.exec(value)
  if (!match || Number(match[1]) < 1) return false
  const parsed = new Date(`${value}T00:00:00.000Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value
}

/**
 * An RFC 3339 timestamp of a real day, with an offset of at most 15:59, whose instant falls within
 * those days (so `0001-01-01T00:00:00+01:00`, in year 0 in UTC, is not one). Leap seconds are not
 * accepted: JavaScript cannot hold them.
 */
export function isStorableTime(value: string): boolean {
  const match = TIME.exec(value)
  if (!match || !isStorableDay(match[1] as string)) return false
  const instant = Date.parse(value.toUpperCase().replace(' ', 'T'))
  return instant >= EARLIEST && instant <= LATEST
}

/** Whether a moment is one the service can store. */
export function isStorableInstant(date: Date): boolean {
  const time = date.getTime()
  return time >= EARLIEST && time <= LATEST
}
