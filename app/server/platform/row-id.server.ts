import crypto from 'node:crypto'

let lastTime = 0
let sequence = 0

/**
 * A new row id for the raw inserts, like the cuid ids Prisma gives the other rows: the time, then a
 * sequence, then randomness. Ids made by this process sort in the order they were made, even within
 * one millisecond, so (createdAt, id) orders rows written in the same millisecond as they were written.
 */
export function createRowId() {
  const now = Date.now()
  if (now > lastTime) {
    lastTime = now
    sequence = 0
  } else sequence++
  return `c${lastTime.toString(36)}${sequence.toString(36).padStart(4, '0')}${crypto.randomBytes(6).toString('hex')}`
}
