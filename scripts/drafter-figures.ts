import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { findClaims } from '~/server/narratives/claims.server'
import { LONG_TEXT_MAX, type NarrativeInput } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import { TONES } from '~/shared/tones'
import { ORGANISATIONS } from '../tests/fixtures/organisations'
import { copiedShare, listMarkers, sentencesOf, sharedRunShare, splicesAfterColon, verblessSentences } from '../tests/setup/prose'

// The figures of docs/drafter.md, measured on the test organisations:
//   npx tsx scripts/drafter-figures.ts [--drafter path/to/a/drafter.server.ts] [--samples]
// --drafter measures another version of the drafter (a copy of an older one, say); --samples prints
// the drafts of the food bank, the solar-lamp enterprise and the coastal lab as well.

const drafterPath = argValue('--drafter') ?? 'app/server/generation/drafter/drafter.server.ts'
const { draftNarrative } = (await import(pathToFileURL(path.resolve(drafterPath)).href)) as {
  draftNarrative: (input: NarrativeInput) => string
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)
const percent = (value: number) => `${(value * 100).toFixed(1)}%`

let sentences = 0
let verbless = 0
let outOfRange = 0
let unsupported = 0
let markers = 0
let splices = 0
let contactMissing = 0
const copied: number[] = []
const overlaps: number[] = []
const perOrganisation: string[] = []
for (const { input } of ORGANISATIONS) {
  const drafts = TONES.map((tone) => draftNarrative({ ...input, selectedTone: tone }))
  const { selectedTone: _tone, ...inputs } = input
  for (const draft of drafts) {
    const words = countWords(draft)
    if (words < 300 || words > 400) outOfRange++
    sentences += sentencesOf(draft).length
    verbless += verblessSentences(draft).length
    unsupported += findClaims(draft, inputs).filter((claim) => !claim.supported).length
    markers += listMarkers(draft).length
    splices += splicesAfterColon(draft, input).length
    if (!draft.includes(input.contactName1)) contactMissing++
    copied.push(copiedShare(draft, input))
  }
  const pairs = drafts.flatMap((a, index) => drafts.slice(index + 1).map((b) => sharedRunShare(a, b)))
  overlaps.push(...pairs)
  perOrganisation.push(
    `| ${input.company} | ${drafts.map(countWords).join(' / ')} | ${percent(mean(drafts.map((draft) => copiedShare(draft, input))))} | ${percent(Math.max(...pairs))} |`,
  )
}

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

const drafts = ORGANISATIONS.length * TONES.length
console.log(`drafter: ${drafterPath}`)
console.log(`drafts: ${drafts} (${ORGANISATIONS.length} organisations × ${TONES.length} tones)`)
console.log(`outside 300-400 words: ${outOfRange}`)
console.log(
  `unsupported claims: ${unsupported}; list markers: ${markers}; capitals after a colon: ${splices}; drafts without the primary contact: ${contactMissing}`,
)
console.log(`input copied word for word (runs of 5+ words): mean ${percent(mean(copied))}, highest ${percent(Math.max(...copied))}`)
console.log(`sentences without a verb: ${verbless} of ${sentences} (${percent(verbless / sentences)})`)
console.log(`6-word runs shared by two tones: mean ${percent(mean(overlaps))}, highest ${percent(Math.max(...overlaps))}`)
console.log(`draft time, the organisations as written: median ${normal.median.toFixed(2)} ms, p99 ${normal.p99.toFixed(2)} ms`)
console.log(
  `draft time, every long field filled to ${LONG_TEXT_MAX} characters: median ${maximum.median.toFixed(2)} ms, p99 ${maximum.p99.toFixed(2)} ms`,
)
console.log(
  '\n| organisation | words (professional / conversational / passionate / academic) | copied | most shared 6-word runs |\n|---|---|---|---|',
)
console.log(perOrganisation.join('\n'))

if (process.argv.includes('--samples')) {
  for (const organisation of ORGANISATIONS.slice(0, 3)) {
    for (const tone of TONES)
      console.log(`\n## ${organisation.input.company} (${tone})\n\n${draftNarrative({ ...organisation.input, selectedTone: tone })}`)
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
