import { z } from 'zod'
import { getEngine } from '~/server/generation/engines/engine.server'
import { jsonObjectIn } from '~/server/generation/engines/contract.server'
import { CONTENT_FIELDS, type ContentField, type JudgedBacking } from '~/server/narratives/alignment.server'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { FIELD_LABELS } from '~/shared/narrative-schema'
import { errorDetails, log } from '~/server/platform/logger.server'

// A configured model's verdict on which priorities the inputs answer (docs/decisions/030): "answered" is kept only when
// the quote is really in the inputs, so an invented one changes nothing. Asked once per generation: edits change neither.

const VerdictsSchema = z.object({
  priorities: z
    .array(z.object({ n: z.number().int().min(1), answered: z.boolean(), quote: z.string().max(2000).nullable().optional() }))
    .max(100),
})

/** A quote shorter than this says too little to show what answers a priority ("food", "our work"). */
const QUOTE_MIN_WORDS = 4

/** One entry per priority the model judged usably (a quote found in the inputs, or not answered); null when no answer is usable. */
export async function judgeBacking(
  input: NarrativeInput,
  priorities: string[],
  signal: AbortSignal,
): Promise<{ by: string; backing: JudgedBacking[] } | null> {
  const engine = getEngine()
  if (!engine.judgePriorities || !priorities.length) return null
  const fields = CONTENT_FIELDS.filter((field) => input[field]?.trim()).map((field) => ({
    field,
    value: input[field]!,
  }))
  try {
    const answer = await engine.judgePriorities(
      fields.map(({ field, value }) => ({ name: FIELD_LABELS[field], value })),
      priorities,
      signal,
    )
    const parsed = VerdictsSchema.safeParse(JSON.parse(jsonObjectIn(answer)))
    if (!parsed.success) {
      log('warn', 'alignment.model_verdict_refused', { engine: engine.name, problem: parsed.error.issues[0]?.message })
      return null
    }
    // Each field made comparable once, not once a verdict: a hundred verdicts over five long fields stay cheap.
    const readable = fields.map(({ field, value }) => ({ field, value: comparable(value) }))
    return { by: engine.name, backing: kept(parsed.data.priorities, priorities, readable, engine.name) }
  } catch (error) {
    if (signal.aborted) throw error
    log('warn', 'alignment.model_verdict_failed', { engine: engine.name, ...errorDetails(error) })
    return null
  }
}

function kept(
  verdicts: z.infer<typeof VerdictsSchema>['priorities'],
  priorities: string[],
  fields: { field: ContentField; value: string }[],
  engine: string,
): JudgedBacking[] {
  const judged: JudgedBacking[] = []
  for (const [index, priority] of priorities.entries()) {
    const verdict = verdicts.find((candidate) => candidate.n === index + 1)
    if (!verdict) continue
    if (!verdict.answered) {
      judged.push({ priority, field: null, quote: null })
      continue
    }
    const found = verdict.quote ? quoted(verdict.quote, fields) : null
    if (found) judged.push({ priority, ...found })
    else log('warn', 'alignment.model_quote_not_in_inputs', { engine, priority: index + 1 })
  }
  return judged
}

/** The field that holds the quote (`fields` already comparable), and the quote as the model wrote it; null when none does. */
function quoted(quote: string, fields: { field: ContentField; value: string }[]): { field: ContentField; quote: string } | null {
  const bare = quote
    .replace(/^\s*["“‘']+|["”’']+\s*$/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  const wanted = comparable(bare)
  if (wanted.split(' ').length < QUOTE_MIN_WORDS) return null
  const field = fields.find(({ value }) => value.includes(wanted))?.field
  return field ? { field, quote: bare } : null
}

/** Case, spacing and typographic quotes aside: a model copies a sentence, not its bytes. */
function comparable(text: string): string {
  return text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim().toLowerCase()
}
