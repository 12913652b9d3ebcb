import { UnfitVariantError, type NarrativeEngine, type VariantRetry, type VariantTask } from '~/server/generation/engines/contract.server'
import { cutToLimit, fits, measure, unitLabel, type Limit } from '~/shared/variant-limits'
import type { JobOutput } from '~/server/generation/engines/contract.server'

/** The limit is a promise (decision 018): an answer over it is asked for once more, then cut at its last whole sentence. */
export async function writeVariant(engine: NarrativeEngine, task: VariantTask, out: JobOutput, signal: AbortSignal): Promise<string> {
  const first = await attemptVariant(engine.streamVariant(task, signal), out)
  if (fits(first, task.limit)) return first
  const retry = overshoot(first, task.limit)
  out.restart(
    `The first draft was ${retry.length} ${unitLabel(task.limit)}, ${retry.over} over the limit of ${task.limit.max}. Asking for a shorter one.`,
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
  const length = measure(text, limit)
  return { text, length, over: length - limit.max }
}
