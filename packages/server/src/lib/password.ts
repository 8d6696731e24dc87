import crypto from 'node:crypto'

// One scrypt computation. `crypto.scrypt` is read at each call, not bound at import, so that a
// test can count the computations a sign-in costs.
function scryptAsync(
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password, salt, keylen, options, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/** scrypt's work factor: CPU and memory cost `N`, block size `r`, parallelism `p`. */
export interface PasswordCost {
  readonly N: number
  readonly r: number
  readonly p: number
}

/** The work factor of every password the service hashes: OWASP's scrypt floor. */
export const PASSWORD_COST: PasswordCost = { N: 2 ** 17, r: 8, p: 1 }

const PARAMS = { ...PASSWORD_COST, maxmem: 256 * 1024 * 1024 }
const KEY_LENGTH = 32

/**
 * A salted scrypt hash, self-describing: `scrypt$N$r$p$salt$hash` (base64), so verifying reads
 * the work factor from the hash itself. Only tests ask for a lower one than `PASSWORD_COST`: the
 * suite signs in thousands of times, which at the real cost would be most of its run.
 */
export async function hashPassword(
  password: string,
  cost: PasswordCost = PASSWORD_COST,
): Promise<string> {
  const salt = crypto.randomBytes(16)
  const params = { ...cost, maxmem: PARAMS.maxmem }
  const hash = await scryptAsync(password.normalize('NFKC'), salt, KEY_LENGTH, params)
  return [
    'scrypt',
    params.N,
    params.r,
    params.p,
    salt.toString('base64'),
    hash.toString('base64'),
  ].join('$')
}

/** Whether `stored` reads as a hash made by hashPassword (verifying anything else computes nothing). */
export function isPasswordHash(stored: string): boolean {
  return /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/.test(stored)
}

/** Whether `password` matches a hash made by hashPassword, compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await scryptAsync(
    password.normalize('NFKC'),
    Buffer.from(salt, 'base64'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: PARAMS.maxmem,
    },
  )
  return crypto.timingSafeEqual(actual, expected)
}
