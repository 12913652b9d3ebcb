import { checkEvidence } from '~/server/coach/check.server'
import { typeOf } from '~/server/coach/evidence-types.server'
import { tag } from '~/server/language/tagger.server'
import { coachSummary, METRIC_TYPES } from '~/shared/evidence'
import { readOrganisations } from '../setup/corpus'

// The evidence coach held to its goals on the labelled corpus (docs/corpus.md): lines typed as a reviewer would, and an
// answer whose every suggestion reads as a sentence and whose summary counts what it shows.

const organisations = readOrganisations()

it('types at least 90% of the labelled lines as a reviewer would, and most of each type', () => {
  const lines = organisations.flatMap((organisation) => organisation.evidence)
  expect(lines.length).toBeGreaterThanOrEqual(150)
  const wrong = lines.filter((label) => typeOf({ text: label.line, tokens: tag(label.line) }).type !== label.type)
  expect(1 - wrong.length / lines.length, wrong.map((label) => `${label.type}: ${label.line}`).join('\n')).toBeGreaterThanOrEqual(0.9)
  for (const type of METRIC_TYPES) {
    const ofType = lines.filter((label) => label.type === type)
    const right = ofType.filter((label) => !wrong.includes(label)).length
    expect(right / ofType.length, type).toBeGreaterThanOrEqual(0.8)
  }
})

describe.each(organisations.map((organisation) => [organisation.slug, organisation] as const))('the coach on %s', (_, organisation) => {
  const check = checkEvidence(organisation.inputs)

  it('suggests only whole sentences, and names programmes, never sentences, as programmes', () => {
    const flags = [...check.flags, ...check.metrics.flatMap((metric) => metric.flags)]
    for (const flag of flags) expect(flag.suggestion, flag.kind).toMatch(/^\p{Lu}[^\n]*[.”]$/u)
    const programmeLines = organisation.inputs.keyPrograms.split(/\n+/).map((line) => line.replace(/^\s*[-*•]\s*/, '').trim())
    for (const { words } of flags.filter((candidate) => candidate.kind === 'programme-without-result')) {
      const name = words.replace(/…$/, '')
      const from = programmeLines.find((line) => line.includes(name))
      // Its name before a colon, what "We run…" runs, or a line with no verb at all.
      const named =
        from?.startsWith(`${name}:`) ||
        /^(?:we|our)\b/i.test(from ?? '') ||
        tag(name).every((token) => token.pos !== 'VERB' && token.pos !== 'AUX')
      expect(named, `${words} ← ${from}`).toBe(true)
    }
  })

  it('counts in its summary the lines it shows and the questions it asks', () => {
    const questions = check.flags.length + check.metrics.flatMap((metric) => metric.flags).length
    expect(coachSummary(check)).toContain(`${check.metrics.length} line`)
    if (questions) expect(coachSummary(check)).toContain(`${questions} question`)
  })
})
