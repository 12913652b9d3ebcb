import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { findClaims } from '~/server/narratives/claims.server'
import { leftOut } from '~/server/narratives/coverage.server'
import { LONG_TEXT_MAX, type NarrativeInput } from '~/shared/narrative-schema'
import type { FunderBrief } from '~/server/generation/engines/contract.server'
import { countWords } from '~/shared/text'
import { TONES } from '~/shared/tones'
import { ORGANISATIONS } from '../tests/fixtures/organisations'
import { readCalls, readOrganisations } from '../tests/setup/corpus'
import { copiedShare, numeralRun, PADDING, sentencesOf, sharedRunShare, sharedSentences, verblessSentences } from '../tests/setup/prose'

// The figures of docs/drafter.md, measured on the test organisations:
//   npx tsx scripts/drafter-figures.ts [--drafter path/to/a/drafter.server.ts] [--samples]
// --drafter measures another version of the drafter (a copy of an older one, say); --samples prints
// the drafts of the pantry, the textile company and the water centre as well.

const drafterPath = argValue('--drafter') ?? 'app/server/generation/drafter/drafter.server.ts'
const { draftNarrative } = (await import(pathToFileURL(path.resolve(drafterPath)).href)) as {
  draftNarrative: (input: NarrativeInput, brief?: FunderBrief | null, options?: { variation?: number }) => string
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)
const percent = (value: number) => `${(value * 100).toFixed(1)}%`
const ASK = /seeking funding|looking for (?:support|partners)|need your support|funding is sought/

const drafts = new Map(
  ORGANISATIONS.map((organisation) => [organisation, TONES.map((tone) => draftNarrative({ ...organisation.input, selectedTone: tone }))]),
)
let sentences = 0
let verbless = 0
let unsupported = 0
let padding = 0
let numeralRuns = 0
let noAsk = 0
let itemsLeftOut = 0
let shortOfFacts = 0
let sameWhenRegenerated = 0
const words: number[] = []
const copied: number[] = []
const perOrganisation: string[] = []
for (const [organisation, byTone] of drafts) {
  const { selectedTone: _tone, ...inputs } = organisation.input
  for (const [index, draft] of byTone.entries()) {
    words.push(countWords(draft))
    sentences += sentencesOf(draft).length
    verbless += verblessSentences(draft).length
    unsupported += findClaims(draft, inputs).filter((claim) => !claim.supported).length
    padding += sentencesOf(draft).filter((sentence) => PADDING.test(sentence)).length
    if (numeralRun(draft) > 1) numeralRuns++
    if (!ASK.test(draft.split('\n\n').at(-1) ?? '')) noAsk++
    const missing = leftOut(draft, inputs).length
    itemsLeftOut += missing
    if (missing > 0 && countWords(draft) < 360) shortOfFacts++
    if (draftNarrative({ ...organisation.input, selectedTone: TONES[index] }, null, { variation: 1 }) === draft) sameWhenRegenerated++
    copied.push(copiedShare(draft, organisation.input))
  }
  perOrganisation.push(
    `| ${organisation.input.company} | ${organisation.richness}, ${organisation.sector}, ${organisation.spelling.toUpperCase()} | ${byTone.map(countWords).join(' / ')} | ${percent(mean(byTone.map((draft) => copiedShare(draft, organisation.input))))} |`,
  )
}

const stock = TONES.map((tone, index) => {
  let shared = 0
  let total = 0
  let worst = 0
  for (const [at, a] of ORGANISATIONS.entries()) {
    for (const b of ORGANISATIONS.slice(at + 1)) {
      const pair = sharedSentences(drafts.get(a)![index], drafts.get(b)![index])
      shared += pair.shared.length
      total += Math.min(sentencesOf(drafts.get(a)![index]).length, sentencesOf(drafts.get(b)![index]).length)
      worst = Math.max(worst, pair.share)
    }
  }
  return `${tone} ${percent(shared / total)} (worst pair ${percent(worst)})`
})

const normal = timeDrafts(ORGANISATIONS.flatMap(({ input }) => TONES.map((selectedTone) => ({ ...input, selectedTone }))))
const fill = (text: string) =>
  `${text} `
    .repeat(Math.ceil(LONG_TEXT_MAX / (text.length + 1)))
    .slice(0, LONG_TEXT_MAX)
    .trim()
const maximum = timeDrafts(
  ORGANISATIONS.flatMap(({ input }) =>
    TONES.map((selectedTone) => ({
      ...input,
      selectedTone,
      missionStatement: fill(input.missionStatement),
      keyPrograms: fill(input.keyPrograms),
      impactMetrics: fill(input.impactMetrics),
      targetAudience: fill(input.targetAudience ?? ''),
      geographicFocus: fill(input.geographicFocus ?? ''),
    })),
  ),
)

const count = ORGANISATIONS.length * TONES.length
console.log(`drafter: ${drafterPath}`)
console.log(`drafts: ${count} (${ORGANISATIONS.length} organisations × ${TONES.length} tones)`)
console.log(`sentences two organisations share word for word, per tone: ${stock.join('; ')}`)
console.log(
  `words: mean ${mean(words).toFixed(0)}, fewest ${Math.min(...words)}, most ${Math.max(...words)}; over 400: ${words.filter((n) => n > 400).length}`,
)
console.log(`items of the inputs left out: ${itemsLeftOut} (in drafts with room to spare: ${shortOfFacts})`)
console.log(
  `drafts whose close makes no request: ${noAsk}; padding sentences: ${padding}; drafts with two sentences in a row on a numeral: ${numeralRuns}`,
)
console.log(`unsupported claims: ${unsupported}; sentences without a verb: ${verbless} of ${sentences} (${percent(verbless / sentences)})`)
console.log(`input copied word for word (runs of 5+ words): mean ${percent(mean(copied))}, highest ${percent(Math.max(...copied))}`)
console.log(`drafts a regeneration gives again byte for byte: ${sameWhenRegenerated}`)
console.log(`draft time, the organisations as written: median ${normal.median.toFixed(2)} ms, p99 ${normal.p99.toFixed(2)} ms`)
console.log(
  `draft time, every long field filled to ${LONG_TEXT_MAX} characters: median ${maximum.median.toFixed(2)} ms, p99 ${maximum.p99.toFixed(2)} ms`,
)
console.log('\n| organisation | inputs | words (professional / conversational / passionate / academic) | copied |\n|---|---|---|---|')
console.log(perOrganisation.join('\n'))

// On the reading corpus: each organisation in its four tones, and written for each call it is paired with.
const corpusCalls = new Map([...readCalls(), ...readCalls('held-out/calls')].map((call) => [call.slug, call]))
const toneShares: number[] = []
const funderShares: number[] = []
for (const organisation of [...readOrganisations(), ...readOrganisations('held-out/organisations')]) {
  const input = { ...organisation.inputs, contactName1: 'A. Person', contactEmail1: 'a@example.org' }
  const general = TONES.map((tone) => draftNarrative({ ...input, selectedTone: tone }))
  for (const [at, a] of general.entries()) for (const b of general.slice(at + 1)) toneShares.push(sharedRunShare(a, b))
  for (const slug of Object.keys(organisation.alignment)) {
    const { labels } = corpusCalls.get(slug)!
    const brief: FunderBrief = {
      funder: labels.name,
      amount: null,
      priorities: labels.priorities,
      terms: [],
      maxWords: labels.maxWords ?? null,
    }
    for (const [index, tone] of TONES.entries()) {
      const written = draftNarrative({ ...input, selectedTone: tone }, brief)
      funderShares.push(sharedSentences(written, general[index]).shared.length / Math.max(1, sentencesOf(written).length))
    }
  }
}
console.log(
  `\nreading corpus: two tones of one organisation share a mean ${percent(mean(toneShares))} of their six-word runs (worst ${percent(Math.max(...toneShares))}, ${toneShares.filter((share) => share > 0.4).length} of ${toneShares.length} pairs over 40%)`,
)
console.log(
  `reading corpus: a version written for a funder shares a mean ${percent(mean(funderShares))} of its sentences with the general narrative (worst ${percent(Math.max(...funderShares))}, ${funderShares.filter((share) => share > 0.5).length} of ${funderShares.length} over half)`,
)

if (process.argv.includes('--samples')) {
  for (const name of ['Eastside Community Pantry', 'ReWeave Textiles Inc.', 'The Center for Rural Water Safety']) {
    const organisation = ORGANISATIONS.find((candidate) => candidate.input.company === name)!
    for (const [index, tone] of TONES.entries()) console.log(`\n## ${name} (${tone})\n\n${drafts.get(organisation)![index]}`)
  }
}

function timeDrafts(inputs: NarrativeInput[]) {
  for (const input of inputs) draftNarrative(input) // warm up
  const samples: number[] = []
  for (let round = 0; round < 10; round++) {
    for (const input of inputs) {
      const started = performance.now()
      draftNarrative(input)
      samples.push(performance.now() - started)
    }
  }
  samples.sort((a, b) => a - b)
  return { median: samples[Math.floor(samples.length / 2)], p99: samples[Math.floor(samples.length * 0.99)] }
}

function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name)
  return index === -1 ? undefined : process.argv[index + 1]
}
