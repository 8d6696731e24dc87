import { ID_BYTES, idBytes, idFromBytes } from './ids.ts'

/** A keyset position: the sort key values of the last item of a page. */
export type CursorPosition = readonly (string | number | null)[]

// One tag byte per value, then its bytes. Times and ids, the values of most positions, take a
// fraction of their text: a cursor is read (and paid for, by agents) on every page.
const TAG = { null: 0, number: 1, time: 2, id: 3, text: 4 } as const
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const TIME_BYTES = 6

/** The bytes of a position (the plaintext of a cursor). */
export function packPosition(position: CursorPosition): Buffer {
  const parts: Buffer[] = []
  for (const value of position) {
    if (value === null) parts.push(Buffer.of(TAG.null))
    else if (typeof value === 'number') {
      const bytes = Buffer.alloc(9)
      bytes.writeUInt8(TAG.number)
      bytes.writeDoubleBE(value, 1)
      parts.push(bytes)
    } else parts.push(packText(value))
  }
  return Buffer.concat(parts)
}

// A time or an id in its compact form when it comes back as the very same string, else the text.
function packText(value: string): Buffer {
  const time = TIME.test(value) ? Date.parse(value) : Number.NaN
  if (time >= 0 && time < 2 ** (TIME_BYTES * 8) && new Date(time).toISOString() === value) {
    const bytes = Buffer.alloc(1 + TIME_BYTES)
    bytes.writeUInt8(TAG.time)
    bytes.writeUIntBE(time, 1, TIME_BYTES)
    return bytes
  }
  const id = idBytes(value)
  if (id)
    return Buffer.concat([Buffer.of(TAG.id, id.prefix.length), Buffer.from(id.prefix), id.bytes])
  const text = Buffer.from(value, 'utf8')
  return Buffer.concat([Buffer.of(TAG.text), varint(text.length), text])
}

/** The position in the bytes `packPosition` made; null for any other bytes. */
export function unpackPosition(bytes: Buffer): CursorPosition | null {
  const position: (string | number | null)[] = []
  let at = 0
  const take = (length: number): Buffer | null => {
    if (at + length > bytes.length) return null
    at += length
    return bytes.subarray(at - length, at)
  }
  while (at < bytes.length) {
    const tag = bytes.readUInt8(at++)
    if (tag === TAG.null) position.push(null)
    else if (tag === TAG.number) {
      const value = take(8)?.readDoubleBE()
      if (value === undefined) return null
      position.push(value)
    } else if (tag === TAG.time) {
      const value = take(TIME_BYTES)?.readUIntBE(0, TIME_BYTES)
      if (value === undefined) return null
      position.push(new Date(value).toISOString())
    } else if (tag === TAG.id) {
      const prefixLength = take(1)?.readUInt8()
      const prefix = prefixLength === undefined ? null : take(prefixLength)
      const body = take(ID_BYTES)
      if (!prefix || !body) return null
      position.push(idFromBytes(prefix.toString('latin1'), body))
    } else if (tag === TAG.text) {
      const length = readVarint(bytes, at)
      if (!length) return null
      at = length.end
      const text = take(length.value)
      if (!text) return null
      position.push(text.toString('utf8'))
    } else return null
  }
  return position.length > 0 ? position : null
}

// An unsigned LEB128 integer: seven bits a byte, low bits first.
function varint(value: number): Buffer {
  const bytes: number[] = []
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
  return Buffer.from(bytes)
}

function readVarint(bytes: Buffer, start: number): { value: number; end: number } | null {
  let value = 0
  for (let at = start, shift = 0; at < bytes.length && shift < 35; at++, shift += 7) {
    const byte = bytes.readUInt8(at)
    value += (byte & 0x7f) * 2 ** shift
    if (byte < 0x80) return { value, end: at + 1 }
  }
  return null
}
