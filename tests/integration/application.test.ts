import { prisma } from '~/server/platform/db.server'
import { action as createApi } from '~/routes/api/narratives'
import { loader as applicationApi } from '~/routes/api/narrative-application'
import { action as answerApi } from '~/routes/api/narrative-application-answer'
import { action as variantsApi } from '~/routes/api/narrative-variants'
import { action as pageAction, loader as pageLoader } from '~/routes/app/narrative-application'
import { action as loginAction } from '~/routes/public/login'
import { createFunder } from '~/server/funders/funders.server'
import { ANSWERS_KEPT } from '~/server/narratives/variants.server'
import { measure } from '~/shared/variant-limits'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest, routeArgs } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'
import { unzip } from '../setup/unzip'
import { loader as fileApi } from '~/routes/api/narrative-application-download'
import { loader as filePage } from '~/routes/resources/application-download'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

// A narrative written for a brief seen as the application: every question with its answer counted under the call's
// own rule, answers people write and correct (never kept over the limit), and figures that disagree across the texts.

beforeEach(resetDatabase)

const { selectedTone: _tone, ...FIELDS } = FULL_INPUT
const INPUTS = {
  ...FIELDS,
  impactMetrics: 'In 2023 we served 212 families and distributed 4,500 pounds of produce each week.',
}
const NARRATIVE = 'Harvest Table Food Bank served 212 families in 2023, and 4,500 pounds of produce go out each week.'
const QUESTIONS = [
  { text: 'Summarise your project in one or two sentences.', maxCharacters: 60 },
  { text: 'What difference will the project make?', maxCharacters: 60, withoutSpaces: true },
  { text: 'How many families does your food bank serve?', maxWords: 40 },
]

type Person = Awaited<ReturnType<typeof makeApiUser>>

async function application(person: Person, { brief = true } = {}) {
  const funder = await createFunder(person.user, {
    name: 'Lane County Community Foundation',
    callText: 'Our priorities: food security.',
    questions: QUESTIONS,
    deadline: '2027-03-31',
  })
  const res = await call(
    createApi,
    jsonRequest(
      '/api/narrative',
      {
        ...INPUTS,
        tone: 'professional',
        generatedNarrative: NARRATIVE,
        ...(brief ? { funderId: funder.id, amountRequested: '$25,000' } : {}),
      },
      { token: person.token },
    ),
  )
  expect(res.status).toBe(201)
  return res.body.data.id as string
}

const read = (id: string, token: string) => call(applicationApi, getRequest(`/api/narrative/${id}/application`, { token }), { id })
const answer = (id: string, index: number, text: unknown, token: string) =>
  call(answerApi, jsonRequest(`/api/narrative/${id}/application/questions/${index}`, { text }, { method: 'PUT', token }), {
    id,
    index: String(index),
  })

describe('the application', () => {
  it('gives every question of the call with its limit under the call’s own rule, the stage, the amount and the deadline', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    const res = await read(id, person.token)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      stage: 'drafting',
      stages: [{ stage: 'drafting', at: expect.any(String) }],
      deadline: '2027-03-31',
      amountRequested: '$25,000',
      funder: { id: expect.any(String), name: 'Lane County Community Foundation' },
      narrative: { text: NARRATIVE, conflicts: [] },
      questions: [
        { index: 0, text: QUESTIONS[0].text, limit: { unit: 'characters', max: 60, spaces: true }, answer: null, conflicts: [] },
        { index: 1, text: QUESTIONS[1].text, limit: { unit: 'characters', max: 60, spaces: false }, answer: null, conflicts: [] },
        { index: 2, text: QUESTIONS[2].text, limit: { unit: 'words', max: 40, spaces: false }, answer: null, conflicts: [] },
      ],
      disclosure: expect.stringContaining('people'),
    })
  })

  it('is not found for a narrative written for no brief, nor for another person’s', async () => {
    const person = await makeApiUser()
    const plain = await application(person, { brief: false })
    expect((await read(plain, person.token)).status).toBe(404)
    const theirs = await application(person)
    const other = await makeApiUser()
    expect((await read(theirs, other.token)).status).toBe(404)
    expect((await answer(theirs, 0, 'Fresh food for every family.', other.token)).status).toBe(404)
    expect(await prisma.narrativeVariant.count()).toBe(0)
  })

  it('shows the answer written for a question, counted under the question’s rule', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    const written = await call(
      variantsApi,
      jsonRequest(`/api/narrative/${id}/variants`, { format: 'question', question: 2 }, { token: person.token }),
      { id },
    )
    expect(written.status).toBe(200)
    const stored = await waitForAnswer(id)
    const { questions } = (await read(id, person.token)).body.data
    expect(questions[2].answer).toEqual({
      id: stored.id,
      text: stored.text,
      count: measure(stored.text, { unit: 'words' }),
      withinLimit: true,
    })
  })

  it('keeps a person’s answer, counting characters without spaces where the call says so, and refuses one over the limit', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    // 67 characters with its spaces, 56 without: within question 2's rule, over question 1's.
    const text = 'Fresh produce for every family that asks, all year, in Lane County.'
    const refused = await answer(id, 0, text, person.token)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('This answer is 67 characters: the question allows 60. Shorten it before saving.')

    const saved = await answer(id, 1, text, person.token)
    expect(saved.status).toBe(200)
    expect(saved.body.data).toMatchObject({ index: 1, answer: { text, count: 56, withinLimit: true } })
    const { questions } = (await read(id, person.token)).body.data
    expect(questions[1].answer.text).toBe(text)
    expect(questions[0].answer).toBeNull()

    expect((await answer(id, 3, 'No such question.', person.token)).status).toBe(404)
    expect((await answer(id, 2, '   ', person.token)).body.error).toBe('Write an answer')
  })

  it('flags a figure stated differently in an answer and the narrative beside both, with the input it should match', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    expect((await answer(id, 2, 'We served 210 families last year.', person.token)).status).toBe(200)
    const { narrative, questions } = (await read(id, person.token)).body.data
    expect(questions[2].conflicts).toEqual([
      { figure: '210 families', elsewhere: [{ question: null, figure: '212 families' }], inputs: ['212 families'] },
    ])
    expect(narrative.conflicts).toEqual([
      { figure: '212 families', elsewhere: [{ question: 2, figure: '210 families' }], inputs: ['212 families'] },
    ])

    // Corrected, the answer agrees and nothing is flagged.
    await answer(id, 2, 'We served 212 families last year.', person.token)
    const corrected = (await read(id, person.token)).body.data
    expect(corrected.questions[2].conflicts).toEqual([])
    expect(corrected.narrative.conflicts).toEqual([])
  })

  it('waits while the narrative is being written, and finds no question at a place that is not a number', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    await prisma.narrative.update({ where: { id }, data: { status: 'generating' } })
    const waiting = await answer(id, 0, 'Fresh food.', person.token)
    expect(waiting.status).toBe(409)
    expect(waiting.body.error).toBe('The narrative is still being written: save the answer once it is done.')
    expect((await read(id, person.token)).status).toBe(200)
    await prisma.narrative.update({ where: { id }, data: { status: 'complete' } })
    for (const place of ['1e1', '0x1', '-0', '1.0'])
      expect(
        (await call(answerApi, jsonRequest(`/x`, { text: 'Fresh food.' }, { method: 'PUT', token: person.token }), { id, index: place }))
          .status,
      ).toBe(404)
    expect(await prisma.narrativeVariant.count()).toBe(0)
  })

  it(`keeps a question's newest ${ANSWERS_KEPT} answers, the newest its answer`, async () => {
    const person = await makeApiUser()
    const id = await application(person)
    for (let round = 1; round <= ANSWERS_KEPT + 2; round++)
      await prisma.narrativeVariant.create({
        data: {
          narrativeId: id,
          userId: person.user.id,
          format: 'question',
          question: QUESTIONS[2].text,
          limitUnit: 'words',
          limitMax: 40,
          status: 'complete',
          engine: 'manual',
          text: `Answer ${round}.`,
          createdAt: new Date(Date.UTC(2026, 0, round)),
        },
      })
    await answer(id, 2, 'The last word.', person.token)
    const kept = await prisma.narrativeVariant.findMany({ where: { narrativeId: id }, orderBy: { createdAt: 'desc' } })
    expect(kept.map((variant) => variant.text)).toEqual([
      'The last word.',
      ...Array.from({ length: ANSWERS_KEPT - 1 }, (_, index) => `Answer ${ANSWERS_KEPT + 2 - index}.`),
    ])
    expect((await read(id, person.token)).body.data.questions[2].answer.text).toBe('The last word.')
  })
})

describe('the page', () => {
  it('saves an answer from a plain form, and gives back what was typed with the reason when it is over the limit', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    const cookie = await signInAs(person.user.email)
    const path = `/admin/narratives/${id}/application`
    const saved = await call(
      pageAction,
      formRequest(path, { intent: 'answer', question: '2', text: 'Families across the county.' }, { cookie }),
      {
        id,
      },
    )
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe(`${path}#question-3`)

    const long = 'Fresh produce for every family that asks, all year round, in Lane County and beyond.'
    const refused = await call(pageAction, formRequest(path, { intent: 'answer', question: '0', text: long }, { cookie }), { id })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ question: 0, text: long, error: expect.stringContaining('the question allows 60') })

    const page = await call(pageLoader, getRequest(path, { cookie }), { id })
    expect(page.body.questions.map((question: { answer: { text: string } | null }) => question.answer?.text ?? null)).toEqual([
      null,
      null,
      'Families across the county.',
    ])
  })
})

describe('the whole application as one file', () => {
  const paragraphs = (docx: ArrayBuffer) =>
    (unzip(Buffer.from(docx)).get('word/document.xml') ?? '')
      .split('</w:p>')
      .map((paragraph) => [...paragraph.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((match) => match[1]).join(''))
      .filter(Boolean)
      .map((text) => text.replace(/&amp;/g, '&').replace(/&apos;/g, "'"))

  it('is a Word file of every question in the call’s order with its answer and count, then the narrative and the contacts', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    await answer(id, 0, 'Fresh produce for every family.', person.token)
    await answer(id, 2, 'We serve 212 families.', person.token)
    const file = (await fileApi(
      routeArgs(getRequest(`/api/narrative/${id}/application/docx`, { token: person.token }), { id }),
    )) as Response
    expect(file.status).toBe(200)
    expect(file.headers.get('Content-Disposition')).toMatch(
      /filename="Harvest-Table-Food-Bank-Application-to-Lane-County-Community-Foundation-/,
    )
    const bytes = await file.arrayBuffer()
    const text = paragraphs(bytes)
    expect(text.slice(0, 2)).toEqual(['Harvest Table Food Bank Application to Lane County Community Foundation', expect.any(String)])
    expect(text.slice(2, 14)).toEqual([
      `Question 1: ${QUESTIONS[0].text}`,
      'Fresh produce for every family.',
      '31 of 60 characters',
      `Question 2: ${QUESTIONS[1].text}`,
      'Not answered yet.',
      '0 of 60 characters without spaces',
      `Question 3: ${QUESTIONS[2].text}`,
      'We serve 212 families.',
      '4 of 40 words',
      'Narrative',
      NARRATIVE,
      'Contact Information',
    ])
    expect(text).not.toContain('How this text was made')
    // The file's properties name what wrote the first draft: people, here.
    expect(unzip(Buffer.from(bytes)).get('docProps/core.xml')).toContain('First draft by people')
  })

  it('adds the AI-use statement when asked, and is a PDF of the same from the page', async () => {
    const person = await makeApiUser()
    const id = await application(person)
    await answer(id, 2, 'We serve 212 families.', person.token)
    const cookie = await signInAs(person.user.email)
    const response = (await filePage(
      routeArgs(getRequest(`/resources/narratives/${id}/application/pdf?statement=1`, { cookie }), { id }),
    )) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/pdf')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'application-'))
    const pdf = path.join(dir, 'application.pdf')
    fs.writeFileSync(pdf, Buffer.from(await response.arrayBuffer()))
    const text = (await promisify(execFile)('pdftotext', [pdf, '-'])).stdout.replace(/\s+/g, ' ')
    fs.rmSync(dir, { recursive: true, force: true })
    const order = [
      'Question 1:',
      'Not answered yet.',
      'Question 3:',
      'We serve 212 families.',
      '4 of 40 words',
      'Narrative',
      'Contact Information',
      'How this text was made',
    ]
    const at = order.map((part) => text.indexOf(part))
    expect(at.every((place) => place >= 0)).toBe(true)
    expect(at).toEqual([...at].sort((a, b) => a - b))

    const other = await makeApiUser()
    expect((await call(fileApi, getRequest(`/api/narrative/${id}/application/pdf`, { token: other.token }), { id })).status).toBe(404)
  })
})

const signInAs = async (email: string) =>
  cookiesFrom((await call(loginAction, formRequest('/login', { email, password: PASSWORD }))).headers)

/** The offline drafter's answer, once written. */
async function waitForAnswer(narrativeId: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = await prisma.narrativeVariant.findFirst({ where: { narrativeId, status: 'complete' } })
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('The answer was not written')
}
