import { getEngine } from '~/server/generation/engines/engine.server'
import { jsonObjectIn } from '~/server/generation/engines/contract.server'
import { CallReadingSchema, type CallReading } from '~/shared/funder-schema'
import { errorDetails, log } from '~/server/platform/logger.server'
import { runWork } from '~/server/platform/work-pool.server'

/** Plain code always reads the call; a configured model's checked answer is taken where it says something (docs/decisions/030). */
export async function understandCall(callText: string, signal?: AbortSignal): Promise<CallReading> {
  // Plain code reads it in the work pool (call-reading.server.ts): its cost grows with the call.
  const plain = await runWork<CallReading>('read-call', callText, {
    signal,
    tooMuch: 'The call took too long to read. Paste the part about what the funder looks for.',
  })
  const engine = getEngine()
  if (!engine.readCall) return plain
  try {
    const answer = await engine.readCall(callText, signal ?? new AbortController().signal)
    const parsed = CallReadingSchema.safeParse(JSON.parse(jsonObjectIn(answer)))
    if (!parsed.success) {
      log('warn', 'funder.model_reading_refused', { engine: engine.name, problem: parsed.error.issues[0]?.message })
      return plain
    }
    return merged(parsed.data, plain)
  } catch (error) {
    log('warn', 'funder.model_reading_failed', { engine: engine.name, ...errorDetails(error) })
    return plain
  }
}

function merged(model: CallReading, plain: CallReading): CallReading {
  const reading: CallReading = {
    priorities: model.priorities.length ? model.priorities : plain.priorities,
    questions: model.questions.length ? model.questions : plain.questions,
    terms: model.terms.length ? model.terms : plain.terms,
  }
  for (const key of ['name', 'maxWords', 'deadline', 'amountMin', 'amountMax', 'currency'] as const) {
    const value = model[key] ?? plain[key]
    if (value !== undefined) Object.assign(reading, { [key]: value })
  }
  // Each reader's amounts are in order; one's smallest beside the other's largest may not be.
  if (reading.amountMin !== undefined && reading.amountMax !== undefined && reading.amountMin > reading.amountMax) delete reading.amountMin
  return reading
}
