import fs from 'node:fs'
import { prisma } from '~/server/platform/db.server'
import { action as fundersAction, loader as fundersLoader } from '~/routes/app/funders'
import { action as funderAction, loader as funderLoader } from '~/routes/app/funder'
import { action as dashboardAction, loader as dashboardLoader } from '~/routes/app/dashboard'
import { loader as narrativePage, action as narrativeAction } from '~/routes/app/narrative'
import { loader as listPage } from '~/routes/app/narratives'
import { loader as docxApi } from '~/routes/api/narrative-download'
import { action as loginAction } from '~/routes/public/login'
import { createFunder } from '~/server/funders/funders.server'
import { CALL_READINGS_PER_MINUTE, enforceCallReadingRateLimit } from '~/server/edge/rate-limit.server'
import mammoth from 'mammoth'
import { createSession } from '~/server/accounts/auth.server'
import { resetDatabase } from '../setup/db'
import { FOOD_BANK } from '../fixtures/organisations'
import { asFormFields } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, routeArgs } from '../setup/requests'
import { makeApiUser, makeUser, PASSWORD } from '../setup/users'
import { FAKE_PDF, multipart } from '../../scripts/hostile/call-files'

// The funder pages as a browser without JavaScript uses them: plain forms, multipart for the file.

beforeEach(resetDatabase)

const ORIGIN = 'https://narratives.example.org'

async function signIn(email: string) {
  return cookiesFrom((await call(loginAction, formRequest('/login', { email, password: PASSWORD }))).headers)
}

function multipartRequest(path: string, form: FormData, cookie: string) {
  return new Request(ORIGIN + path, { method: 'POST', headers: { Cookie: cookie }, body: form })
}

async function member() {
  await makeUser({ email: 'admin@example.org' })
  const user = await makeUser()
  return { user, cookie: await signIn(user.email) }
}

describe('adding a brief', () => {
  it('reads the uploaded call and opens what was understood of it', async () => {
    const { user, cookie } = await member()
    const form = multipart(
      { intent: 'add', name: 'Lane County Community Foundation', callText: '' },
      { name: 'community-foundation.docx', bytes: fs.readFileSync('tests/fixtures/funders/community-foundation.docx') },
    )
    const res = await call(fundersAction, multipartRequest('/funders', form, cookie))
    expect(res.status).toBe(302)
    const funder = await prisma.funder.findFirstOrThrow({ where: { userId: user.id } })
    expect(res.headers.get('Location')).toBe(`/funders/${funder.id}`)
    const page = await call(funderLoader, getRequest(`/funders/${funder.id}`, { cookie }), { id: funder.id })
    expect(page.body.values).toMatchObject({
      name: 'Lane County Community Foundation',
      deadline: '2027-03-13',
      maxWords: '500',
      amountMin: '10000',
      amountMax: '40000',
      priorities: expect.arrayContaining(['Sustainability: a credible plan to continue the work after the grant ends', '']),
      questionMaxWords: ['250', '200', '150', ''],
    })
    expect(page.body.funder.source).toBe('community-foundation.docx')
  })

  it('refuses a file that is not what its name says, keeping everything typed but the file', async () => {
    const { cookie } = await member()
    const form = multipart(
      { intent: 'add', name: 'Acme Outfitters', callText: 'My notes on the call, typed by hand.', deadline: '2027-05-01' },
      { name: 'call.pdf', bytes: FAKE_PDF },
    )
    const res = await call(fundersAction, multipartRequest('/funders', form, cookie))
    expect(res.status).toBe(415)
    expect(res.body.result.error.file).toEqual(["This file is named .pdf but is not a PDF. Paste the call's text instead."])
    expect(res.body.result.initialValue).toMatchObject({
      name: 'Acme Outfitters',
      callText: 'My notes on the call, typed by hand.',
      deadline: '2027-05-01',
    })
    expect(res.body.result.initialValue.file).toBeUndefined()
    expect(await prisma.funder.count()).toBe(0)
  })

  it('asks for the call when neither text nor file is given', async () => {
    const { cookie } = await member()
    const res = await call(fundersAction, multipartRequest('/funders', multipart({ intent: 'add', name: 'Acme' }, null), cookie))
    expect(res.status).toBe(400)
    expect(res.body.result.error.callText).toEqual(["Paste the call's text or choose a file"])
  })
})

describe('a member past their call readings', () => {
  it('is refused with 429 before the form, which may be 6 MB, is read', async () => {
    const { user, cookie } = await member()
    for (let i = 0; i < CALL_READINGS_PER_MINUTE; i++) await enforceCallReadingRateLimit(user.id)
    let read = false
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true
          controller.error(new Error('The body was read'))
        },
      },
      { highWaterMark: 0 },
    )
    const request = new Request(ORIGIN + '/funders', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'multipart/form-data; boundary=x' },
      body,
      duplex: 'half',
    } as RequestInit)
    const res = await call(fundersAction, request)
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(res.body.result.error['']).toEqual([expect.stringMatching(/^Too many attempts/)])
    expect(read).toBe(false)
  })
})

describe('correcting what was understood', () => {
  it('edits, removes and adds a priority, fixes a limit and adds a question in one plain form', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, {
      name: 'Acme',
      callText: 'Call.',
      priorities: [{ text: 'Youth access' }, { text: 'Stewardship' }, { text: 'Workforce' }],
      questions: [{ text: 'Describe your work.', maxWords: 100 }],
    })
    const fields = new URLSearchParams({
      intent: 'save',
      name: 'Acme Outfitters',
      maxWords: '300',
      terms: 'outdoor access for all\nstewardship',
    })
    for (const [index, text] of ['Youth access to the outdoors', 'Stewardship', 'Workforce', 'Climate resilience'].entries())
      fields.append(`priorities[${index}]`, text)
    fields.append('removePriority', '1')
    for (const [index, [text, words, characters]] of [
      ['Describe your work.', '150', ''],
      ['Who benefits?', '', '800'],
    ].entries()) {
      fields.append(`questionText[${index}]`, text)
      fields.append(`questionMaxWords[${index}]`, words)
      fields.append(`questionMaxCharacters[${index}]`, characters)
    }
    const res = await call(
      funderAction,
      new Request(`${ORIGIN}/funders/${funder.id}`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: fields,
      }),
      { id: funder.id },
    )
    expect(res.status).toBe(302)
    const saved = await prisma.funder.findUniqueOrThrow({ where: { id: funder.id } })
    expect(saved).toMatchObject({ name: 'Acme Outfitters', maxWords: 300 })
    expect(JSON.parse(saved.priorities)).toEqual([
      { text: 'Youth access to the outdoors' },
      { text: 'Workforce' },
      { text: 'Climate resilience' },
    ])
    expect(JSON.parse(saved.questions)).toEqual([
      { text: 'Describe your work.', maxWords: 150 },
      { text: 'Who benefits?', maxCharacters: 800 },
    ])
    expect(JSON.parse(saved.terms)).toEqual(['outdoor access for all', 'stewardship'])
  })

  it("is the owner's alone: another member's brief is not found, and deleting it is refused", async () => {
    const { user } = await member()
    const funder = await createFunder(user, { name: 'Acme', callText: 'Call.' })
    const other = await makeApiUser()
    const cookie = await signIn(other.user.email)
    expect((await call(funderLoader, getRequest(`/funders/${funder.id}`, { cookie }), { id: funder.id })).status).toBe(404)
    expect(
      (await call(funderAction, formRequest(`/funders/${funder.id}`, { intent: 'delete' }, { cookie }), { id: funder.id })).status,
    ).toBe(404)
    expect((await call(fundersLoader, getRequest('/funders', { cookie }))).body.funders).toEqual([])
    expect(await prisma.funder.count()).toBe(1)
  })
})

describe('writing for a brief without JavaScript', () => {
  it('generates from the dashboard for the chosen brief and shows the alignment, the questions and the funder on the page', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, {
      name: 'Lane County Community Foundation',
      callText: 'Call.',
      priorities: [{ text: 'Food security: reducing hunger among families' }, { text: 'Sustainability: continuing after the grant' }],
      questions: [{ text: 'How will you measure the difference your project makes?', maxWords: 60 }],
      deadline: '2027-03-13',
    })
    const chosen = await call(dashboardLoader, getRequest(`/dashboard?funder=${funder.id}`, { cookie }))
    expect(chosen.body.formValues.funderId).toBe(funder.id)
    expect(chosen.body.funders).toEqual([{ id: funder.id, name: 'Lane County Community Foundation', deadline: '2027-03-13' }])
    const res = await call(
      dashboardAction,
      formRequest(
        '/dashboard',
        { intent: 'generate', ...asFormFields(FOOD_BANK.input), funderId: funder.id, amountRequested: '$25,000' },
        { cookie },
      ),
    )
    expect(res.status).toBe(302)
    const id = res.headers.get('Location')!.split('/').at(-1)!
    const page = await call(narrativePage, getRequest(`/admin/narratives/${id}`, { cookie }), { id })
    expect(page.body.funder).toMatchObject({
      id: funder.id,
      name: 'Lane County Community Foundation',
      amountRequested: '$25,000',
      deadline: '2027-03-13',
      questions: [{ text: 'How will you measure the difference your project makes?', limit: { unit: 'words', max: 60 } }],
    })
    expect(page.body.funder.alignment.map((item: { state: string }) => item.state)[0]).toBe('answered')
    expect(page.body.funder.coverage).toBeGreaterThan(0)
    // The dashboard remembers the brief the last narrative was written for.
    expect((await call(dashboardLoader, getRequest('/dashboard', { cookie }))).body.formValues).toMatchObject({
      funderId: funder.id,
      amountRequested: '$25,000',
    })
    // The question, answered offline, within its own limit.
    const answered = await call(
      narrativeAction,
      formRequest(`/admin/narratives/${id}`, { intent: 'variant', format: 'question', question: '0' }, { cookie }),
      { id },
    )
    expect(answered.status).toBe(302)
    const variant = await prisma.narrativeVariant.findFirstOrThrow({ where: { narrativeId: id } })
    expect(variant).toMatchObject({
      status: 'complete',
      format: 'question',
      limitMax: 60,
      question: 'How will you measure the difference your project makes?',
    })
    // The list finds it by funder; the Word file is titled for the funder.
    const list = await call(listPage, getRequest(`/admin/narratives?funder=${funder.id}&sort=deadline`, { cookie }))
    expect(list.body.narratives).toEqual([
      expect.objectContaining({ id, funder: 'Lane County Community Foundation', deadline: '2027-03-13' }),
    ])
    const token = await createSession(user.id, 'api')
    const docx = (await docxApi(routeArgs(getRequest(`/api/narrative/${id}/docx`, { token }), { id }))) as Response
    expect(docx.headers.get('Content-Disposition')).toMatch(/Impact-Narrative-for-Lane-County-Community-Foundation/)
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(await docx.arrayBuffer()) })
    expect(value).toContain('Lane County Food Share Impact Narrative for Lane County Community Foundation')
  })

  it("refuses another member's brief on the dashboard, with the field named", async () => {
    const { user } = await member()
    const funder = await createFunder(user, { name: 'Acme', callText: 'Call.' })
    const other = await makeApiUser()
    const cookie = await signIn(other.user.email)
    const res = await call(
      dashboardAction,
      formRequest('/dashboard', { intent: 'generate', ...asFormFields(FOOD_BANK.input), funderId: funder.id }, { cookie }),
    )
    expect(res.status).toBe(400)
    expect(res.body.result.error.funderId).toEqual(['Choose one of your funder briefs.'])
    expect(await prisma.narrative.count()).toBe(0)
  })
})
