import { createHash, timingSafeEqual } from 'node:crypto'

const BEARER = /^Bearer\s+(\S+)$/i

/**
 * Whether an `Authorization` header presents `METRICS_TOKEN` as a bearer token. The comparison
 * is of equal-length digests, so it takes the same time whatever was presented.
 */
export function metricsTokenCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token)
  return (authorization) => {
    const presented = BEARER.exec(authorization ?? '')?.[1]
    return presented !== undefined && timingSafeEqual(digest(presented), expected)
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}
