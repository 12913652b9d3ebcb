import fs from 'node:fs'
import { prisma } from '~/server/platform/db.server'
import { startGeneration, startVariant } from '~/server/generation/job/jobs.server'
import { forFunder, createFunder } from '~/server/funders/funders.server'
import { understandCall } from '~/server/funders/understand.server'
import { countWords } from '~/shared/text'
import { type FakeOpenAI } from '../fixtures/fake-openai'
import { FOOD_BANK } from '../fixtures/organisations'
import { resetDatabase } from '../setup/db'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { readOrganisations } from '../setup/corpus'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { AlignmentPanel } from '~/components/alignment-panel'
import { alignmentOfNarrative, updateNarrativeText } from '~/server/narratives/narratives.server'
import { makeUser } from '../setup/users'

// The model's side of a funder's brief (docs/spec.md#the-prompt): the call read as a checked JSON
// answer, the brief in the narrative's prompt, the call's limit kept, and a question answered alone.

const CALL = fs.readFileSync('tests/fixtures/funders/corporate-giving.txt', 'utf8')
const LONG_ANSWER = Array.from({ length: 60 }, (_, i) => `Sentence ${i + 1} tells the funder one more thing about the work.`).join(' ')
const MODEL_READING = {
  name: 'Acme Outfitters',
  priorities: [{ text: 'Outdoor access for young people' }, { text: 'Conservation volunteering' }],
  questions: [{ text: 'How does your work advance outdoor access for all?', maxWords: 120 }],
  terms: ['outdoor access for all'],
  amountMax: 15000,
  currency: '$',
}

let fake: FakeOpenAI
let reading: unknown = MODEL_READING
/** The model's verdicts on a brief's priorities; its narrative is LONG_ANSWER unless `narrative` is set. */
let verdicts = 'I cannot say.'
let narrative: string | null = null

beforeAll(async () => {
  fake = await useFakeModel({
    timeoutMs: 2000,
    text: (prompt) => {
      if (prompt.includes('<call>')) return typeof reading === 'string' ? reading : JSON.stringify(reading)
      return prompt.includes('<priorities>') ? verdicts : (narrative ?? LONG_ANSWER)
    },
  })
})
afterAll(async () => {
  useOfflineDrafter()
  await fake.close()
})
beforeEach(async () => {
  await resetDatabase()
  fake.reset()
  reading = MODEL_READING
  verdicts = 'I cannot say.'
  narrative = null
})

const lastPrompt = () => String(fake.requests.at(-1)!.body.messages.at(-1).content)
/** The narrative's own prompt: after it, a model is asked for its verdict on the brief's priorities. */
const narrativePrompt = () =>
  String(
    fake.requests.findLast((request) => !String(request.body.messages[0].content).includes('<priorities>'))!.body.messages.at(-1).content,
  )

describe("a model reading a funder's call", () => {
  it('asks for one JSON object, checks it, and fills what it left out from plain code', async () => {
    const understood = await understandCall(CALL)
    expect(fake.requests[0].body).toMatchObject({ response_format: { type: 'json_object' } })
    expect(fake.requests[0].body.stream).toBeFalsy()
    expect(lastPrompt()).toContain('<call>\nAcme Outfitters Community Giving')
    expect(understood).toEqual({ ...MODEL_READING, maxWords: 300 })
  })

  it.each([
    ['text that is no JSON', 'Here are the priorities: outdoor access.'],
    ['JSON of another shape', JSON.stringify({ priorities: 'outdoor access', terms: [] })],
    ['a priority of 2,000 characters', JSON.stringify({ ...MODEL_READING, priorities: [{ text: 'x'.repeat(2000) }] })],
  ])('falls back to plain code on %s', async (_, answer) => {
    reading = answer
    const understood = await understandCall(CALL)
    expect(understood.priorities.map((priority) => priority.text)).toEqual([
      'Youth access to the outdoors, especially for young people from underserved communities',
      'Environmental stewardship: conservation projects that involve volunteers',
      'Workforce development: job skills and training for careers in outdoor recreation',
    ])
  })

  it('takes an answer wrapped in a code fence after its thoughts', async () => {
    reading = `<think>Let me look.</think>\n\`\`\`json\n${JSON.stringify(MODEL_READING)}\n\`\`\``
    expect((await understandCall(CALL)).priorities).toEqual(MODEL_READING.priorities)
  })
})

describe('a narrative written for a brief by the model', () => {
  async function briefed() {
    const user = await makeUser()
    const funder = await createFunder(user, {
      name: 'Lane County Community Foundation',
      callText: 'Our priorities.',
      priorities: [{ text: 'Food security for families' }, { text: 'Rural reach' }, { text: 'Sustainability after the grant' }],
      terms: ['food security', 'rural reach'],
      maxWords: 120,
      questions: [{ text: 'How will the work continue after the grant period?', maxWords: 40 }],
    })
    fake.reset()
    return { user, funder }
  }

  it('carries the brief in the prompt: the funder, the amount, the priorities in order, its terms and its limit, never as instructions', async () => {
    const { user, funder } = await briefed()
    const started = await startGeneration(
      user.id,
      FOOD_BANK.input,
      await forFunder(user, { funderId: funder.id, amountRequested: '$25,000' }),
    )
    await started.finished
    const prompt = narrativePrompt()
    expect(prompt).toContain("of at most 120 words: this is the funder's limit")
    expect(prompt).not.toContain('300 to 400 words')
    expect(prompt).toContain("Order and weight the narrative by the funder's priorities, most important first")
    expect(prompt).toContain('Where the data says nothing about a priority, leave that priority out: never invent')
    expect(prompt).toContain("Use the funder's own terms where the organization data truly supports them")
    expect(prompt).toContain('In the call to action, name Lane County Community Foundation and ask it for $25,000.')
    const block = prompt.slice(prompt.indexOf('<funder_brief>'), prompt.indexOf('</funder_brief>'))
    expect(block).toContain(
      '<field name="priorities">\n1. Food security for families\n2. Rural reach\n3. Sustainability after the grant\n</field>',
    )
    expect(block).toContain('<field name="terms">\nfood security; rural reach\n</field>')
    expect(block).toContain('<field name="amountRequested">\n$25,000\n</field>')
    expect(prompt.indexOf('</organization_data>')).toBeLessThan(prompt.indexOf('<funder_brief>'))
  })

  it("keeps the call's word limit: a longer answer is cut at its last whole sentence within it", async () => {
    const { user, funder } = await briefed()
    const started = await startGeneration(user.id, FOOD_BANK.input, await forFunder(user, { funderId: funder.id }))
    await started.finished
    const saved = await prisma.narrative.findUniqueOrThrow({ where: { id: started.id } })
    expect(countWords(LONG_ANSWER)).toBeGreaterThan(120)
    expect(countWords(saved.generatedNarrative)).toBeLessThanOrEqual(120)
    expect(saved.generatedNarrative).toMatch(/thing about the work\.$/)
    expect(saved.alignment).not.toBeNull()
  })

  it('without a brief, the prompt is the usual one', async () => {
    const user = await makeUser()
    await (
      await startGeneration(user.id, FOOD_BANK.input)
    ).finished
    expect(lastPrompt()).toContain('300 to 400 words')
    expect(lastPrompt()).not.toContain('funder_brief')
  })

  it("answers one of the call's questions as a variant within the question's own limit", async () => {
    const { user, funder } = await briefed()
    const written = await startGeneration(user.id, FOOD_BANK.input, await forFunder(user, { funderId: funder.id }))
    await written.finished
    const variant = await startVariant(user.id, written.id, { format: 'question', question: 0 })
    await variant.finished
    const asked = String(
      fake.requests.find((request) => String(request.body.messages[0].content).includes('<question>'))!.body.messages[0].content,
    )
    expect(asked).toContain('<question>\nHow will the work continue after the grant period?\n</question>')
    expect(asked).toContain('at most 40 words')
    const saved = await prisma.narrativeVariant.findUniqueOrThrow({ where: { id: variant.id } })
    expect(saved).toMatchObject({
      format: 'question',
      question: 'How will the work continue after the grant period?',
      limitUnit: 'words',
      limitMax: 40,
    })
    expect(countWords(saved.text)).toBeLessThanOrEqual(40)
  })
})

describe("a model's verdict on which priorities the inputs answer", () => {
  // The befriending charity of the corpus: plain code reads no answer to "bring people together" in its
  // inputs, and reads one to two priorities that nothing in them touches.
  const befriending = readOrganisations().find((organisation) => organisation.slug === 'uk-childrens-befriending')!
  const input = { ...befriending.inputs, contactName1: 'Jo Baker', contactEmail1: 'jo@example.org', selectedTone: 'professional' as const }
  const TOGETHER = 'bring people together and build strong relationships within and between communities'
  const ABUSE = 'Domestic and sexual abuse: specialist services for people who have experienced domestic or sexual abuse'
  const OLDER = 'Older people: helping older people to stay independent, connected and less isolated'
  const BEFRIENDING =
    'One-to-one befriending: we match children aged 6 to 14 with a trained adult volunteer who meets them every week for two to three hours of outings and activities.'

  async function written() {
    const user = await makeUser()
    const funder = await createFunder(user, {
      name: 'Awards for All',
      callText: 'Our priorities.',
      priorities: [TOGETHER, ABUSE, OLDER].map((text) => ({ text })),
    })
    fake.reset()
    narrative =
      'Stand By Me Befriending matches children aged 6 to 14 with a trained adult volunteer, who meets them every week for outings and activities. ' +
      'Many of the children have lived through family difficulties such as domestic abuse.'
    const started = await startGeneration(user.id, input, await forFunder(user, { funderId: funder.id }))
    await started.finished
    return { user, saved: await prisma.narrative.findUniqueOrThrow({ where: { id: started.id } }) }
  }

  it('keeps a verdict only when its quote is in the inputs, and shows the quote', async () => {
    verdicts = JSON.stringify({
      priorities: [
        // Copied as a model copies: its own spacing and quotes.
        { n: 1, answered: true, quote: `“${BEFRIENDING.replace(' with ', '  with ')}”` },
        { n: 2, answered: false, quote: null },
        { n: 3, answered: true, quote: 'We visit older people at home every week so that they are less isolated.' },
      ],
    })
    const { saved } = await written()
    const asked = fake.requests.find((request) => String(request.body.messages[0].content).includes('<priorities>'))!
    expect(asked.body).toMatchObject({ response_format: { type: 'json_object' } })
    const prompt = String(asked.body.messages[0].content)
    expect(prompt).toContain(`<priorities>\n1. ${TOGETHER}\n2. ${ABUSE}\n3. ${OLDER}\n</priorities>`)
    expect(prompt).toContain(`<field name="Key Programs and Services">\n${befriending.inputs.keyPrograms}`)

    expect(JSON.parse(saved.brief!).judged).toEqual({
      by: 'gpt-4',
      backing: [
        { priority: TOGETHER, field: 'keyPrograms', quote: BEFRIENDING },
        { priority: ABUSE, field: null, quote: null },
      ],
    })
    const [together, abuse, older] = alignmentOfNarrative(saved)
    expect(together).toMatchObject({ state: 'answered', fields: expect.arrayContaining(['keyPrograms']), judgedBy: 'gpt-4' })
    expect(together.sentences[0]).toMatch(/^Stand By Me Befriending matches children/)
    // Named in the text, but the inputs hold no specialist service for it: said without support.
    expect(abuse).toMatchObject({ state: 'unsupported', fields: [] })
    expect(abuse.quote).toBeUndefined()
    // The invented quote is never shown: plain code judges that priority, as it does with no model.
    expect(older.quote).toBeUndefined()
    expect(JSON.stringify(saved.alignment)).not.toContain('We visit older people')
    // The page says who found the quote, as text.
    const page = renderToStaticMarkup(
      createElement(AlignmentPanel, { funder: 'Awards for All', alignment: [together, abuse, older], coverage: null }),
    )
    expect(page).toContain('gpt-4 found it in your inputs: <q>One-to-one befriending:')
    expect(page.match(/found it in your inputs/g)).toHaveLength(1)
  })

  it('keeps the verdicts for every later edit of the text', async () => {
    verdicts = JSON.stringify({ priorities: [{ n: 1, answered: true, quote: BEFRIENDING }] })
    const { user, saved } = await written()
    const edited = 'Every week a trained adult volunteer takes a child aged 6 to 14 out for outings and activities, one to one.'
    expect(await updateNarrativeText({ id: saved.id, viewer: user, text: edited })).toBe(true)
    const [together] = alignmentOfNarrative(await prisma.narrative.findUniqueOrThrow({ where: { id: saved.id } }))
    expect(together).toMatchObject({ state: 'answered', quote: BEFRIENDING, sentences: [edited] })
  })

  it.each([
    ['text that is no JSON', 'All three are answered.'],
    ['JSON of another shape', JSON.stringify({ answered: [1, 2, 3] })],
  ])('leaves every priority to plain code on %s', async (_, answer) => {
    verdicts = answer
    const { saved } = await written()
    expect(JSON.parse(saved.brief!).judged).toBeUndefined()
    expect(alignmentOfNarrative(saved).map((item) => item.quote)).toEqual([undefined, undefined, undefined])
  })
})
