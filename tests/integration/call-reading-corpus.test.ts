import { readCallFile } from '~/server/funders/call-file.server'
import { readCall } from '~/server/funders/call-reading.server'
import { readCalls } from '../setup/corpus'
import { readerTally } from '../setup/corpus-figures'
import { markdownDocx } from '../setup/markdown-docx'

// The call reader held to its goals on the labelled corpus (docs/corpus.md): it finds at least 95% of the priorities a
// person labelled and takes nothing else, and reads every stated limit, amount and deadline, pasted and as a Word file.

const calls = readCalls()
const lottery = calls.find((call) => call.slug === 'uk-lottery-small-grants')!

async function asWordFile(text: string, name: string) {
  return readCallFile(new File([new Uint8Array(await markdownDocx(text))], `${name}.docx`), { person: 'corpus' })
}

it('finds at least 95% of the labelled priorities, and takes almost no line labelled as not one', async () => {
  const { priorities, misses } = await readerTally(calls)
  expect(priorities.right / priorities.labelled, misses.join('\n')).toBeGreaterThanOrEqual(0.95)
  expect((priorities.found - priorities.notLabelled) / priorities.found, misses.join('\n')).toBeGreaterThanOrEqual(0.95)
  const notPriorities = calls.flatMap((call) => call.labels.notPriorities).length
  expect(priorities.notTaken / notPriorities, misses.join('\n')).toBeLessThanOrEqual(0.01)
})

it('reads every labelled question with its limit, and every amount, currency, deadline and overall limit', async () => {
  const { questions, fields, nameAsTerm, misses } = await readerTally(calls)
  expect(questions.right / questions.labelled, misses.join('\n')).toBeGreaterThanOrEqual(0.95)
  expect(questions.limitsRight, misses.join('\n')).toBe(questions.limitsLabelled)
  expect(questions.spacesRight).toBe(questions.characterLimits)
  for (const [name, { right, all }] of Object.entries(fields)) expect(right, `${name}: ${misses.join('\n')}`).toBe(all)
  expect(nameAsTerm).toBe(0)
})

// The call the first users tried: four priorities as plain bullets after a lead-in, its questions, a range beside the
// old maximum, and the fund's name among its terms. Each was missed or wrong, pasted and as a Word file.
describe.each(['pasted', 'as a Word file'])('the lottery small-grants call %s', (how) => {
  it('is read whole: its four bulleted priorities and the one in prose, its questions, the range as it is now', async () => {
    const text = how === 'pasted' ? lottery.text : await asWordFile(lottery.text, lottery.slug)
    const reading = await readCall(text)
    expect(reading.priorities.map((priority) => priority.text)).toEqual([
      'bring people together and build strong relationships within and between communities',
      'improve the places and spaces that matter to local people',
      'help more people reach their potential by supporting them as early as possible',
      'support people, communities and organisations under extra pressure because of the rising cost of living',
      'Projects that help communities to become more environmentally sustainable',
    ])
    expect(reading.questions).toEqual(lottery.labels.questions.map(({ text, maxWords }) => ({ text, maxWords })))
    expect(reading).toMatchObject({ amountMin: 300, amountMax: 20000, currency: '£' })
    expect(reading.deadline).toBeUndefined()
    const name = new Set(['national', 'lottery', 'awards', 'england'])
    expect(
      reading.terms.filter((term) =>
        term
          .toLowerCase()
          .split(' ')
          .every((word) => name.has(word)),
      ),
    ).toEqual([])
  })
})
