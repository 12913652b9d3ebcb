import { HOSTILE_CASES, prepare, type HostileCase } from './catalogue'
import { startPinger } from './pinger'

export type HostileResult = { name: string; expect: number[]; status: number; right: boolean; stallMs: number }

/**
 * `atOnce` cases a group, taken a stride apart: neighbours in the catalogue are often alike and sent by one
 * account (the file cases), and one person's second file or fifth heavy task at once is refused by design.
 */
function groupsOf(cases: HostileCase[], atOnce: number): HostileCase[][] {
  const stride = Math.ceil(cases.length / atOnce)
  return Array.from({ length: stride }, (_, start) =>
    Array.from({ length: atOnce }, (_, k) => cases[start + k * stride]).filter((hostile) => hostile !== undefined),
  )
}

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
    for (const group of groupsOf(cases, atOnce)) {
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
