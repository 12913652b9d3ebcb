import argon2 from 'argon2'

// OWASP's minimum for argon2id: 19 MiB, 2 iterations, 1 lane. argon2 hashes on libuv's
// thread pool, so a sign-in never blocks the event loop.
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS)
}

let dummyHash: Promise<string> | undefined

/** With no hash (unknown email) it checks against a dummy one, so the answer takes as long either way. */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword('a password nobody has')
  const matches = await argon2.verify(hash ?? (await dummyHash), password).catch(() => false)
  return hash !== undefined && matches
}
