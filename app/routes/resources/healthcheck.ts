import { prisma } from '~/server/platform/db.server'
import { errorDetails, log } from '~/server/platform/logger.server'

export async function loader() {
  try {
    await prisma.$queryRaw`SELECT 1`
    return new Response('OK', { headers: { 'Cache-Control': 'no-store' } })
  } catch (error) {
    log('error', 'healthcheck.failed', errorDetails(error))
    return new Response('ERROR', { status: 500, headers: { 'Cache-Control': 'no-store' } })
  }
}
