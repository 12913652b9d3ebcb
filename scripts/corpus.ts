// npm run corpus: the figures of the code that reads people's text, measured on the labelled corpus
// (tests/fixtures/corpus/README.md): the call reader (pasted, and as Word files where marked), alignment
// of an organisation's inputs with a call's priorities, and the evidence coach's types. Prints a Markdown
// table per measure and the misses behind each figure (--misses). docs/corpus.md records the runs.
import { callFromUpload } from '~/server/funders/call-file.server'
import { readCall } from '~/server/funders/call-reading.server'
import { inputBacking } from '~/server/narratives/alignment.server'
import { typeOf } from '~/server/coach/rules.server'
import { tag } from '~/server/generation/drafter/tagger.server'
import { contentWords } from '~/server/funders/topics.server'
import type { CallReading } from '~/shared/funder-schema'
import { normal, readCalls, readOrganisations, type CorpusCall } from '../tests/setup/corpus'
import { markdownDocx } from '../tests/setup/markdown-docx'

const MISSES = process.argv.includes('--misses')
const misses: string[] = []
const miss = (line: string) => misses.push(line)

const ratio = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${(part / whole).toFixed(2)} (${part}/${whole})`)

/** Two readings of one line: the same words, one inside the other, or most content words shared. */
function sameLine(found: string, label: string) {
  const [a, b] = [normal(found), normal(label)]
  if (a === b || ((a.includes(b) || b.includes(a)) && Math.min(a.length, b.length) / Math.max(a.length, b.length) >= 0.6)) return true
  const [x, y] = [new Set(contentWords(a)), new Set(contentWords(b))]
  const shared = [...x].filter((word) => y.has(word)).length
  return shared / Math.max(1, new Set([...x, ...y]).size) >= 0.6
}

/** The reader may give a currency as its sign: "$" is right for any dollar. */
const SIGNS: Record<string, string[]> = { '£': ['GBP'], '€': ['EUR'], $: ['USD', 'CAD', 'AUD', 'NZD'] }
const sameCurrency = (got: string, labelled: string) => got.toUpperCase() === labelled || (SIGNS[got] ?? []).includes(labelled)

type ReaderTally = {
  priorities: { labelled: number; found: number; right: number; notTaken: number; notLabelled: number }
  questions: { labelled: number; found: number; right: number; limitsLabelled: number; limitsRight: number }
  fields: Record<'amountMin' | 'amountMax' | 'currency' | 'deadline' | 'maxWords', { right: number; all: number }>
  nameAsTerm: number
}

function emptyTally(): ReaderTally {
  const field = () => ({ right: 0, all: 0 })
  return {
    priorities: { labelled: 0, found: 0, right: 0, notTaken: 0, notLabelled: 0 },
    questions: { labelled: 0, found: 0, right: 0, limitsLabelled: 0, limitsRight: 0 },
    fields: { amountMin: field(), amountMax: field(), currency: field(), deadline: field(), maxWords: field() },
    nameAsTerm: 0,
  }
}

function score(tally: ReaderTally, call: CorpusCall, reading: CallReading, how: string) {
  const { labels } = call
  const found = reading.priorities.map((priority) => priority.text)
  tally.priorities.labelled += labels.priorities.length
  tally.priorities.found += found.length
  for (const label of labels.priorities)
    if (found.some((text) => sameLine(text, label))) tally.priorities.right++
    else miss(`${call.slug} (${how}): priority not found: ${label}`)
  for (const text of found) {
    if (!labels.priorities.some((label) => sameLine(text, label))) miss(`${call.slug} (${how}): taken as a priority: ${text}`)
    if (labels.notPriorities.some((label) => sameLine(text, label))) tally.priorities.notTaken++
  }
  tally.priorities.notLabelled += found.filter((text) => !labels.priorities.some((label) => sameLine(text, label))).length

  tally.questions.labelled += labels.questions.length
  tally.questions.found += reading.questions.length
  for (const label of labels.questions) {
    const question = reading.questions.find((candidate) => sameLine(candidate.text, label.text))
    if (question) tally.questions.right++
    else miss(`${call.slug} (${how}): question not found: ${label.text}`)
    if (label.maxWords || label.maxCharacters) {
      tally.questions.limitsLabelled++
      const right =
        question &&
        (question.maxWords ?? null) === (label.maxWords ?? null) &&
        (question.maxCharacters ?? null) === (label.maxCharacters ?? null)
      if (right) tally.questions.limitsRight++
      else miss(`${call.slug} (${how}): limit of "${label.text}": ${JSON.stringify(question ?? null)}`)
    }
  }
  for (const name of ['amountMin', 'amountMax', 'currency', 'deadline', 'maxWords'] as const) {
    const expected = labels[name] ?? null
    const got = reading[name] ?? null
    tally.fields[name].all++
    if (expected === got || (name === 'currency' && sameCurrency(String(got), String(expected)))) tally.fields[name].right++
    else miss(`${call.slug} (${how}): ${name} ${String(got)}, labelled ${String(expected)}`)
  }
  const funderWords = new Set(contentWords(normal(labels.name)))
  // A term all of whose words are the fund's name's ("Community Possible" of "U.S. Bank Community Possible Grants").
  const fromName = reading.terms.filter((term) => contentWords(normal(term)).every((word) => funderWords.has(word)))
  if (fromName.length) {
    tally.nameAsTerm++
    miss(`${call.slug} (${how}): terms from the fund's own name: ${fromName.join('; ')}`)
  }
}

async function measureReader() {
  const calls = readCalls()
  const pasted = emptyTally()
  const asWord = emptyTally()
  for (const call of calls) {
    score(pasted, call, await readCall(call.text), 'pasted')
    if (!call.docx) continue
    const form = new FormData()
    form.set('file', new File([new Uint8Array(await markdownDocx(call.text))], `${call.slug}.docx`))
    const upload = await callFromUpload(form, { person: 'corpus' })
    score(asWord, call, await readCall(upload!.text), 'Word')
  }
  const words = calls.filter((call) => call.docx).length
  console.log(`\n### The call reader: ${calls.length} calls pasted, ${words} also as Word files\n`)
  console.log('| measure | pasted | as Word files |\n|---|---|---|')
  const row = (name: string, get: (tally: ReaderTally) => string) => console.log(`| ${name} | ${get(pasted)} | ${get(asWord)} |`)
  row('priorities found (recall)', (t) => ratio(t.priorities.right, t.priorities.labelled))
  row('priorities read that are priorities (precision)', (t) => ratio(t.priorities.found - t.priorities.notLabelled, t.priorities.found))
  row('lines labelled "not a priority" taken as one', (t) => String(t.priorities.notTaken))
  row('questions found (recall)', (t) => ratio(t.questions.right, t.questions.labelled))
  row('questions read that are questions (precision)', (t) => ratio(Math.min(t.questions.right, t.questions.found), t.questions.found))
  row("questions' stated limits read right", (t) => ratio(t.questions.limitsRight, t.questions.limitsLabelled))
  for (const name of ['amountMin', 'amountMax', 'currency', 'deadline', 'maxWords'] as const)
    row(`${name} right`, (t) => ratio(t.fields[name].right, t.fields[name].all))
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
