export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank]
}

export const median = (values: number[]) => percentile(values, 50)
export const p99 = (values: number[]) => percentile(values, 99)

export function ms(value: number, digits = 1) {
  return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : 'n/a'
}

export function now() {
  return performance.now()
}

/**
 * Runs each variant `count` times, alternating them (A B A B ...), and returns each one's timings.
 * The first rounds (one in twenty) only warm up the code paths and are not counted.
 */
export async function interleave<K extends string>(count: number, variants: Record<K, () => Promise<number>>) {
  const results = Object.fromEntries(Object.keys(variants).map((key) => [key, [] as number[]])) as Record<K, number[]>
  for (let i = 0; i < Math.ceil(count / 20); i++) {
    for (const key of Object.keys(variants) as K[]) await variants[key]()
  }
  for (let i = 0; i < count; i++) {
    for (const key of Object.keys(variants) as K[]) results[key].push(await variants[key]())
  }
  return results
}

/** `clients` concurrent loops for `durationMs`; returns latencies and requests per second. */
export async function load(clients: number, durationMs: number, request: () => Promise<void>) {
  const latencies: number[] = []
  const end = now() + durationMs
  const start = now()
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (now() < end) {
        const t0 = now()
        await request()
        latencies.push(now() - t0)
      }
    }),
  )
  return { latencies, perSecond: latencies.length / ((now() - start) / 1000) }
}
