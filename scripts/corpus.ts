// npm run corpus: the figures of the code that reads people's text, measured on the labelled corpus
// (tests/fixtures/corpus/README.md): the call reader (pasted, and as Word files where marked), alignment
// of an organisation's inputs with a call's priorities, and the evidence coach's types. Prints a Markdown
// table per measure and the misses behind each figure (--misses). docs/corpus.md records the runs.
import { callFromUpload } from '~/server/funders/call-file.server'
import { readCall } from '~/server/funders/call-reading.server'
import { inputBacking } from '~/server/narratives/alignment.server'
import { typeOf } from '~/server/coach/evidence-types.server'
import { tag } from '~/server/language/tagger.server'
import { EVIDENCE_TYPES, readApplications, readCalls, readOrganisations } from '../tests/setup/corpus'
import { consistencyTally, emptyTally, READER_FIELDS, readerTally, score, type ReaderTally } from '../tests/setup/corpus-figures'
import { markdownDocx } from '../tests/setup/markdown-docx'

const MISSES = process.argv.includes('--misses')
const misses: string[] = []
const miss = (line: string) => misses.push(line)

const ratio = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${(part / whole).toFixed(2)} (${part}/${whole})`)

async function measureReader() {
  const calls = readCalls()
  const heldOut = readCalls('held-out/calls')
  const pasted = await readerTally(calls)
  const asWord = emptyTally()
  for (const call of calls.filter((call) => call.docx)) {
    const form = new FormData()
    form.set('file', new File([new Uint8Array(await markdownDocx(call.text))], `${call.slug}.docx`))
    const upload = await callFromUpload(form, { person: 'corpus' })
    score(asWord, call, await readCall(upload!.text), 'Word')
  }
  const unseen = await readerTally(heldOut)
  const tallies = [pasted, asWord, unseen]
  misses.push(...tallies.flatMap((tally) => tally.misses.map((line) => (tally === unseen ? `held out: ${line}` : line))))
  const words = calls.filter((call) => call.docx).length
  console.log(`\n### The call reader: ${calls.length} calls pasted, ${words} also as Word files, ${heldOut.length} held out\n`)
  console.log('| measure | pasted | as Word files | held out (pasted) |\n|---|---|---|---|')
  const row = (name: string, get: (tally: ReaderTally) => string) => console.log(`| ${name} | ${tallies.map(get).join(' | ')} |`)
  row('priorities found (recall)', (t) => ratio(t.priorities.right, t.priorities.labelled))
  row('priorities read that are priorities (precision)', (t) => ratio(t.priorities.found - t.priorities.notLabelled, t.priorities.found))
  row('lines labelled "not a priority" taken as one', (t) => String(t.priorities.notTaken))
  row('questions found (recall)', (t) => ratio(t.questions.right, t.questions.labelled))
  row('questions read that are questions (precision)', (t) => ratio(Math.min(t.questions.right, t.questions.found), t.questions.found))
  row("questions' stated limits read right", (t) => ratio(t.questions.limitsRight, t.questions.limitsLabelled))
  row('character limits counted with or without spaces as the call says', (t) =>
    ratio(t.questions.spacesRight, t.questions.characterLimits),
  )
  for (const name of READER_FIELDS) row(`${name} right`, (t) => ratio(t.fields[name].right, t.fields[name].all))
  row("calls with a term from the fund's own name", (t) => String(t.nameAsTerm))
}

type Organisations = ReturnType<typeof readOrganisations>

function alignmentTally(organisations: Organisations, how: string) {
  const calls = new Map(readCalls().map((call) => [call.slug, call]))
  const tally = { truePositive: 0, falsePositive: 0, falseNegative: 0, trueNegative: 0 }
  for (const organisation of organisations)
    for (const [slug, labels] of Object.entries(organisation.alignment)) {
      const backing = inputBacking(organisation.inputs, calls.get(slug)!.labels.name)
      for (const label of labels) {
        const answered = backing(label.priority).length > 0
        if (answered && label.answeredBy) tally.truePositive++
        else if (answered) {
          tally.falsePositive++
          miss(`${how}${organisation.slug} × ${slug}: taken as answered: ${label.priority}`)
        } else if (label.answeredBy) {
          tally.falseNegative++
          miss(`${how}${organisation.slug} × ${slug}: not seen as answered: ${label.priority} ← ${label.answeredBy}`)
        } else tally.trueNegative++
      }
    }
  return tally
}

function measureAlignment() {
  const tallies = [alignmentTally(readOrganisations(), ''), alignmentTally(readOrganisations('held-out/organisations'), 'held out: ')]
  const pairs = tallies.map((t) => t.truePositive + t.falsePositive + t.falseNegative + t.trueNegative)
  console.log(`\n### Alignment: is a priority answered by the inputs? (${pairs[0]} pairs, ${pairs[1]} held out)\n`)
  console.log('| measure | corpus | held out |\n|---|---|---|')
  const row = (name: string, get: (t: (typeof tallies)[number]) => string) => console.log(`| ${name} | ${tallies.map(get).join(' | ')} |`)
  row('precision of "answered"', (t) => ratio(t.truePositive, t.truePositive + t.falsePositive))
  row('recall of "answered"', (t) => ratio(t.truePositive, t.truePositive + t.falseNegative))
  row('gaps seen as gaps', (t) => ratio(t.trueNegative, t.trueNegative + t.falsePositive))
}

function coachTally(organisations: Organisations, how: string) {
  const byType = new Map<string, { right: number; all: number }>()
  for (const organisation of organisations)
    for (const label of organisation.evidence) {
      const { type } = typeOf({ text: label.line, tokens: tag(label.line) })
      for (const key of [label.type, 'all']) {
        const tally = byType.get(key) ?? { right: 0, all: 0 }
        tally.all++
        if (type === label.type) tally.right++
        byType.set(key, tally)
      }
      if (type !== label.type) miss(`${how}${organisation.slug}: typed ${type}, labelled ${label.type}: ${label.line}`)
    }
  return byType
}

function measureCoach() {
  const [corpus, heldOut] = [coachTally(readOrganisations(), ''), coachTally(readOrganisations('held-out/organisations'), 'held out: ')]
  console.log(
    `\n### The evidence coach: ${corpus.get('all')!.all} lines typed as a reviewer would, ${heldOut.get('all')?.all ?? 0} held out\n`,
  )
  console.log('| labelled | typed right | held out |\n|---|---|---|')
  const cell = (tally: { right: number; all: number } | undefined) => (tally ? ratio(tally.right, tally.all) : 'n/a')
  for (const type of [...EVIDENCE_TYPES, 'all']) console.log(`| ${type} | ${cell(corpus.get(type))} | ${cell(heldOut.get(type))} |`)
}

function measureConsistency() {
  const organisations = [...readOrganisations(), ...readOrganisations('held-out/organisations')]
  const [corpus, heldOut] = [readApplications(), readApplications('held-out/applications')]
  const [tally, unseen] = [consistencyTally(corpus, organisations), consistencyTally(heldOut, organisations)]
  misses.push(...tally.misses, ...unseen.misses.map((line) => `held out: ${line}`))
  console.log(`\n### Figures that disagree across an application: ${corpus.length} applications, ${heldOut.length} held out\n`)
  console.log('| measure | corpus | held out |\n|---|---|---|')
  const row = (name: string, get: (t: typeof tally) => string) => console.log(`| ${name} | ${get(tally)} | ${get(unseen)} |`)
  row('precision (pairs flagged that are labelled)', (t) => ratio(t.right, t.flagged))
  row('recall (pairs labelled that are flagged)', (t) => ratio(t.right, t.labelled))
}

await measureReader()
measureAlignment()
measureCoach()
measureConsistency()
if (MISSES) console.log(`\n### Misses\n\n${misses.map((line) => `- ${line}`).join('\n')}`)
process.exit(0)
