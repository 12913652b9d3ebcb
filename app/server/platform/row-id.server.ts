import crypto from 'node:crypto'

let lastTime = 0
let sequence = 0

/**
 * For the raw inserts, like Prisma's cuids. Ids sort in the order they were made even within one
 * millisecond, so (createdAt, id) orders rows written in the same millisecond as they were written.
 */
export function createRowId() {
  const now = Date.now()
  if (now > lastTime) {
    lastTime = now
    sequence = 0
  } else sequence++
  return `c${lastTime.toString(36)}${sequence.toString(36).padStart(4, '0')}${crypto.randomBytes(6).toString('hex')}`
}
