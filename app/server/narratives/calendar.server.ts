import crypto from 'node:crypto'
import ical from 'ical-generator'
import { prisma } from '~/server/platform/db.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { stageLabel } from '~/shared/stages'

// A person's deadlines as a calendar feed at an address signed, not stored (docs/decisions/052).

const FEED_PATH = '/resources/calendar'

function signature(secret: string, userId: string, version: number) {
  return crypto.createHmac('sha256', secret).update(`impact-narrative-studio:calendar:${userId}:${version}`).digest('base64url')
}

/** The feed's file name: `{userId}.{signature}.ics`, signed with the first session secret. */
function feedName(userId: string, version: number) {
  return `${userId}.${signature(getEnv().sessionSecrets[0], userId, version)}.ics`
}

export async function calendarUrlFor(userId: string) {
  const { calendarVersion } = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { calendarVersion: true } })
  return `${getEnv().appOrigin}${FEED_PATH}/${feedName(userId, calendarVersion)}`
}

/** A new address; the old one answers 404 from now on. */
export async function renewCalendarUrl(userId: string) {
  await prisma.user.update({ where: { id: userId }, data: { calendarVersion: { increment: 1 } } })
  log('info', 'calendar.renewed', { userId })
  return calendarUrlFor(userId)
}

/**
 * The person a feed name belongs to, or null: a signature made with any of the session secrets (a rotated
 * one too) and the current number, of an account that is not disabled.
 */
export async function calendarOwner(name: string) {
  const match = /^([a-z0-9]{1,40})\.([A-Za-z0-9_-]{43})\.ics$/.exec(name)
  if (!match) return null
  const [, userId, given] = match
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { id: true, calendarVersion: true, disabledAt: true } })
  if (!user || user.disabledAt) return null
  const signed = Buffer.from(given)
  const valid = getEnv().sessionSecrets.some((secret) =>
    crypto.timingSafeEqual(Buffer.from(signature(secret, user.id, user.calendarVersion)), signed),
  )
  return valid ? user : null
}

/** Every deadline of the person's narratives, one all-day event each, whose UID stays the same at every reading. */
export async function calendarOf(userId: string) {
  const { appOrigin } = getEnv()
  const narratives = await prisma.narrative.findMany({
    where: { userId, deadline: { not: null } },
    orderBy: [{ deadline: 'asc' }, { id: 'asc' }],
    select: { id: true, company: true, funderName: true, deadline: true, stage: true, amountRequested: true },
  })
  const calendar = ical({
    name: 'Impact Narrative Studio: deadlines',
    prodId: { company: 'Impact Narrative Studio', product: 'Deadlines', language: 'EN' },
  })
  for (const narrative of narratives) {
    const day = new Date(`${narrative.deadline}T00:00:00.000Z`)
    const page = `${appOrigin}/admin/narratives/${encodeURIComponent(narrative.id)}`
    calendar.createEvent({
      id: `narrative-${narrative.id}@impact-narrative-studio`,
      allDay: true,
      start: day,
      end: new Date(day.getTime() + 86_400_000),
      summary: `Deadline: ${narrative.funderName ?? 'a funder'} (${narrative.company})`,
      description: [
        `Stage: ${stageLabel(narrative.stage)}`,
        narrative.amountRequested ? `Asking: ${narrative.amountRequested}` : null,
        `Open the application: ${page}`,
      ]
        .filter(Boolean)
        .join('\n'),
      url: page,
    })
  }
  return calendar.toString()
}
