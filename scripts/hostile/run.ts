import { HOSTILE_CASES, prepare } from './catalogue'
import { startPinger } from './pinger'

export type HostileResult = { name: string; expect: number[]; status: number; right: boolean; stallMs: number }

/**
 * Sends every case of the catalogue at the app, `atOnce` at a time, with a pinger watching: each case's
 * answer, and the slowest ping while its group was sent (the app's longest stall, plus one ping's own time).
 */
export async function runCatalogue(origin: string, { cases = HOSTILE_CASES, atOnce = 1 } = {}): Promise<HostileResult[]> {
  const context = await prepare(origin)
  const pinger = startPinger(origin)
  const results: HostileResult[] = []
  try {
    await pinger.worst() // forget the preparation
    for (let start = 0; start < cases.length; start += atOnce) {
      const group = cases.slice(start, start + atOnce)
      const statuses = await Promise.all(group.map((hostile) => hostile.send(context).catch(() => 0)))
      const stallMs = await pinger.worst()
      group.forEach(({ name, expect }, index) =>
        results.push({ name, expect, status: statuses[index], right: expect.includes(statuses[index]), stallMs }),
      )
    }
  } finally {
    await pinger.stop()
  }
  return results
}
