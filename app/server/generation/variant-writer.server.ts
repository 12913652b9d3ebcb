import type { NarrativeEngine } from '~/server/generation/engine.server'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { cutToLimit, fits, measure, type Limit, type VariantFormat } from '~/shared/variant-limits'
import type { JobOutput } from '~/server/generation/jobs.server'

/** What a variant is written from: the saved narrative, its inputs, and the limit it must keep to. */
export type VariantTask = { input: Required<NarrativeInput>; narrativeText: string; format: VariantFormat; limit: Limit }

/** The attempt that ran over its limit, and by how much: the second attempt is told both. */
export type VariantRetry = { text: string; length: number; over: number }

/** No whole sentence fits the limit: failed, and refunded, rather than cut mid-sentence. */
export class UnfitVariantError extends Error {
  constructor(limit: Limit) {
    super(`No whole sentence of the variant fits within ${limit.max} ${limit.unit}. Try a higher limit.`)
  }
}

/**
 * The limit is a promise (docs/decisions/018): the server measures what the engine wrote. An answer
 * over the limit is asked for once more, with the overshoot stated; one still over is cut at its last
 * whole sentence within the limit. Returns the variant's final text.
 */
export async function writeVariant(engine: NarrativeEngine, task: VariantTask, out: JobOutput, signal: AbortSignal): Promise<string> {
  const first = await attemptVariant(engine.streamVariant(task, signal), out)
  if (fits(first, task.limit)) return first
  const retry = overshoot(first, task.limit)
  out.restart(
    `The first draft was ${retry.length} ${task.limit.unit}, ${retry.over} over the limit of ${task.limit.max}. Asking for a shorter one.`,
  )
  const second = await attemptVariant(engine.streamVariant(task, signal, retry), out)
  if (fits(second, task.limit)) return second
  const cut = cutToLimit(second, task.limit)
  if (cut === null) throw new UnfitVariantError(task.limit)
  return cut
}

async function attemptVariant(pieces: AsyncIterable<string>, out: JobOutput) {
  let text = ''
  for await (const piece of pieces) {
    out.append(piece)
    text += piece
  }
  return text.trim()
}

function overshoot(text: string, limit: Limit): VariantRetry {
  const length = measure(text, limit.unit)
  return { text, length, over: length - limit.max }
}
