import { HOSTILE_CASES, prepare, type HostileCase } from './catalogue'
import { startPinger } from './pinger'

export type HostileResult = { name: string; expect: number[]; status: number; right: boolean; stallMs: number }

/**
 * Sends every case of the catalogue at the app, one after another, with a pinger watching: each case's
 * answer, and the slowest ping while it was sent (the app's longest stall, plus one ping's own time).
 */
export async function runCatalogue(origin: string, cases: HostileCase[] = HOSTILE_CASES): Promise<HostileResult[]> {
  const context = await prepare(origin)
  const pinger = startPinger(origin)
  const results: HostileResult[] = []
  try {
    await pinger.worst() // forget the preparation
    for (const hostile of cases) {
      const status = await hostile.send(context).catch(() => 0)
      results.push({
        name: hostile.name,
        expect: hostile.expect,
        status,
        right: hostile.expect.includes(status),
        stallMs: await pinger.worst(),
      })
    }
  } finally {
    await pinger.stop()
  }
  return results
}
