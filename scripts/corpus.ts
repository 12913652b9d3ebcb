// npm run corpus: the figures of the code that reads people's text, measured on the labelled corpus
// (tests/fixtures/corpus/README.md): the call reader (pasted, and as Word files where marked), alignment
// of an organisation's inputs with a call's priorities, and the evidence coach's types. Prints a Markdown
// table per measure and the misses behind each figure (--misses). docs/corpus.md records the runs.
import { callFromUpload } from '~/server/funders/call-file.server'
import { readCall } from '~/server/funders/call-reading.server'
import { inputBacking } from '~/server/narratives/alignment.server'
import { typeOf } from '~/server/coach/evidence-types.server'
import { tag } from '~/server/generation/drafter/tagger.server'
import { readCalls, readOrganisations } from '../tests/setup/corpus'
import { emptyTally, READER_FIELDS, readerTally, score, type ReaderTally } from '../tests/setup/corpus-figures'
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
  for (const name of READER_FIELDS) row(`${name} right`, (t) => ratio(t.fields[name].right, t.fields[name].all))
  row("calls with a term from the fund's own name", (t) => String(t.nameAsTerm))
}

function measureAlignment() {
  const calls = new Map(readCalls().map((call) => [call.slug, call]))
  let truePositive = 0
  let falsePositive = 0
  let falseNegative = 0
  let trueNegative = 0
  for (const organisation of readOrganisations())
    for (const [slug, labels] of Object.entries(organisation.alignment)) {
      const backing = inputBacking(organisation.inputs, calls.get(slug)!.labels.name)
      for (const label of labels) {
        const answered = backing(label.priority).length > 0
        if (answered && label.answeredBy) truePositive++
        else if (answered) {
          falsePositive++
          miss(`${organisation.slug} × ${slug}: taken as answered: ${label.priority}`)
        } else if (label.answeredBy) {
          falseNegative++
          miss(`${organisation.slug} × ${slug}: not seen as answered: ${label.priority} ← ${label.answeredBy}`)
        } else trueNegative++
      }
    }
  console.log(
    `\n### Alignment: is a priority answered by the inputs? (${truePositive + falsePositive + falseNegative + trueNegative} pairs)\n`,
  )
  console.log('| measure | figure |\n|---|---|')
  console.log(`| precision of "answered" | ${ratio(truePositive, truePositive + falsePositive)} |`)
  console.log(`| recall of "answered" | ${ratio(truePositive, truePositive + falseNegative)} |`)
  console.log(`| gaps seen as gaps | ${ratio(trueNegative, trueNegative + falsePositive)} |`)
}

function measureCoach() {
  const lines = readOrganisations().flatMap((organisation) => organisation.evidence.map((label) => ({ ...label, slug: organisation.slug })))
  const byType = new Map<string, { right: number; all: number }>()
  let right = 0
  for (const label of lines) {
    const { type } = typeOf({ text: label.line, tokens: tag(label.line) })
    const tally = byType.get(label.type) ?? { right: 0, all: 0 }
    tally.all++
    if (type === label.type) {
      tally.right++
      right++
    } else miss(`${label.slug}: typed ${type}, labelled ${label.type}: ${label.line}`)
    byType.set(label.type, tally)
  }
  console.log(`\n### The evidence coach: ${lines.length} lines typed as a reviewer would\n`)
  console.log('| labelled | typed right |\n|---|---|')
  for (const [type, tally] of [...byType].sort()) console.log(`| ${type} | ${ratio(tally.right, tally.all)} |`)
  console.log(`| all | ${ratio(right, lines.length)} |`)
}

await measureReader()
measureAlignment()
measureCoach()
if (MISSES) console.log(`\n### Misses\n\n${misses.map((line) => `- ${line}`).join('\n')}`)
process.exit(0)
