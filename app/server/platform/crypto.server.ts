import crypto from 'node:crypto'

export function createSecretToken(): string {
  return crypto.randomBytes(32).toString('base64url')
}

/** Secrets are stored only as this hash, so a copy of the database grants nothing. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex')
}
