import fs from 'node:fs'
import { prisma } from '~/server/platform/db.server'
import { action as fundersAction, loader as fundersLoader } from '~/routes/app/funders'
import { action as funderAction, loader as funderLoader } from '~/routes/app/funder'
import { action as dashboardAction, loader as dashboardLoader } from '~/routes/app/dashboard'
import { loader as narrativePage, action as narrativeAction } from '~/routes/app/narrative'
import { loader as listPage } from '~/routes/app/narratives'
import { loader as docxApi } from '~/routes/api/narrative-download'
import { action as loginAction } from '~/routes/public/login'
import { loader as funderApi } from '~/routes/api/funder'
import { createFunder, forFunder } from '~/server/funders/funders.server'
import { getToast } from '~/server/http/toast.server'
import { CALL_READINGS_PER_MINUTE, enforceCallReadingRateLimit } from '~/server/edge/limits.server'
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
      priorities: expect.arrayContaining(['Sustainability: a credible plan to continue the work after the grant ends']),
      newPriorities: '',
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
  it('edits, removes and adds a priority, fixes a limit, adds questions and says whether spaces count, in one plain form', async () => {
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
    for (const [index, [text, words, characters, spaces]] of [
      ['Describe your work.', '150', '', 'without'],
      ['Who benefits?', '', '800', 'with'],
      ['How will you know?', '', '600', 'without'],
    ].entries()) {
      fields.append(`questionText[${index}]`, text)
      fields.append(`questionMaxWords[${index}]`, words)
      fields.append(`questionMaxCharacters[${index}]`, characters)
      fields.append(`questionSpaces[${index}]`, spaces)
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
      // Spaces are a character limit's rule: a word limit keeps none.
      { text: 'How will you know?', maxCharacters: 600, withoutSpaces: true },
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

/** The edit form as the page sends it for a brief with these priorities and no questions, plus `extra`. */
function editForm(priorities: string[], extra: Record<string, string> = {}) {
  const fields = new URLSearchParams({ intent: 'save', name: 'Acme', ...extra })
  priorities.forEach((text, index) => fields.append(`priorities[${index}]`, text))
  return fields
}

function post(id: string, fields: URLSearchParams | Record<string, string>, cookie: string) {
  return call(
    funderAction,
    new Request(`${ORIGIN}/funders/${id}`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    }),
    { id },
  )
}

async function saved(id: string) {
  const funder = await prisma.funder.findUniqueOrThrow({ where: { id } })
  return { ...funder, priorities: (JSON.parse(funder.priorities) as { text: string }[]).map((priority) => priority.text) }
}

async function toastOf(res: { headers: Headers }) {
  return (await getToast(new Request(ORIGIN, { headers: { Cookie: cookiesFrom(res.headers) } }))).toast
}

const numbered = (count: number, from = 1) => Array.from({ length: count }, (_, index) => `Priority number ${from + index}`)

describe('adding several priorities at once, one a line', () => {
  it('adds each non-blank line, trimmed, in order, after those kept, and skips one already there whatever its case', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, {
      name: 'Acme',
      callText: 'Call.',
      priorities: [{ text: 'Youth access' }, { text: 'Stewardship' }, { text: 'Workforce' }],
    })
    const lines = '  Climate resilience  \r\n\n   \nFood access in rural towns\nYOUTH  access\nclimate resilience\n\t Volunteering\n\n'
    const res = await post(
      funder.id,
      editForm(['Youth access', 'Stewardship', 'Workforce'], { removePriority: '2', newPriorities: lines }),
      cookie,
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/funders/${funder.id}`)
    expect((await saved(funder.id)).priorities).toEqual([
      'Youth access',
      'Stewardship',
      'Climate resilience',
      'Food access in rural towns',
      'Volunteering',
    ])
    expect(await toastOf(res)).toMatchObject({
      type: 'success',
      message: 'Funder brief saved. Already among its priorities, so not added again: “YOUTH  access”, “climate resilience”.',
    })
    // The page shows them in that order, and the box empty again.
    const page = await call(funderLoader, getRequest(`/funders/${funder.id}`, { cookie }), { id: funder.id })
    expect(page.body.values.priorities).toEqual((await saved(funder.id)).priorities)
    expect(page.body.values.newPriorities).toBe('')
  })

  it('fills a brief to its 20 priorities, not counting a line it already has', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, {
      name: 'Acme',
      callText: 'Call.',
      priorities: numbered(18).map((text) => ({ text })),
    })
    const res = await post(
      funder.id,
      editForm(numbered(18), { newPriorities: 'Priority number 3\nPriority number 19\nPriority number 20' }),
      cookie,
    )
    expect(res.status).toBe(302)
    expect((await saved(funder.id)).priorities).toEqual(numbered(20))
  })

  it('refuses lines past 20 priorities, saving nothing of the form, and keeps what was typed', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, {
      name: 'Acme',
      callText: 'Call.',
      priorities: numbered(18).map((text) => ({ text })),
    })
    const before = await saved(funder.id)
    const typed = 'Priority number 19\nPriority number 20\nPriority number 21'
    const res = await post(funder.id, editForm(numbered(18), { name: 'Acme Renamed', newPriorities: typed }), cookie)
    expect(res.status).toBe(400)
    expect(res.body.result.error.newPriorities).toEqual([
      'A brief holds at most 20 priorities: with the 18 above, 2 more fit, and these lines add 3. Add fewer, or remove some above first.',
    ])
    expect(res.body.result.initialValue.newPriorities).toBe(typed)
    expect(await saved(funder.id)).toEqual(before)
    // Removing some above first makes room.
    const room = await post(funder.id, editForm(numbered(18), { removePriority: '0', newPriorities: typed }), cookie)
    expect(room.status).toBe(302)
    expect((await saved(funder.id)).priorities).toEqual(numbered(20, 2))
  })

  it('names the grant fields as the form labels them when the smallest is more than the largest', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, { name: 'Acme', callText: 'Call.', priorities: [{ text: 'Youth access' }] })
    const res = await post(funder.id, editForm(['Youth access'], { amountMin: '90000', amountMax: '100' }), cookie)
    expect(res.status).toBe(400)
    expect(res.body.result.error.amountMin).toEqual(['The smallest grant must not be more than the largest'])
  })

  it('refuses a line longer than a priority can be, naming it, and adds none of the others', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, { name: 'Acme', callText: 'Call.', priorities: [{ text: 'Youth access' }] })
    const before = await saved(funder.id)
    const res = await post(
      funder.id,
      editForm(['Youth access'], { newPriorities: `Stewardship\n\n${'a'.repeat(301)}\nWorkforce\n${'b'.repeat(300)}` }),
      cookie,
    )
    expect(res.status).toBe(400)
    expect(res.body.result.error.newPriorities).toEqual([
      'Line 3 is 301 characters long; a priority can be at most 300. Shorten it or split it in two.',
    ])
    expect(await saved(funder.id)).toEqual(before)
  })

  it('refuses a box longer than 20 priorities could be, without sending it back', async () => {
    const { user, cookie } = await member()
    const funder = await createFunder(user, { name: 'Acme', callText: 'Call.', priorities: [{ text: 'Youth access' }] })
    const res = await post(funder.id, editForm(['Youth access'], { newPriorities: 'Stewardship\n'.repeat(600) }), cookie)
    expect(res.status).toBe(400)
    expect(res.body.result.error.newPriorities.at(-1)).toMatch(/^A brief holds at most 20 priorities of 300 characters/)
    expect(JSON.stringify(res.body)).not.toContain('Stewardship\\nStewardship')
    expect((await saved(funder.id)).priorities).toEqual(['Youth access'])
  })
})

describe('moving a priority up or down', () => {
  const move = (index: number, direction: string, priority: string) => ({ intent: 'move', index: String(index), direction, priority })

  async function briefOf(user: Awaited<ReturnType<typeof member>>['user']) {
    return createFunder(user, {
      name: 'Acme',
      callText: 'Call.',
      priorities: [{ text: 'Youth access' }, { text: 'Stewardship' }, { text: 'Young people’s mental health' }],
    })
  }

  it('saves the new order, which the page, the API and a narrative written for the brief all read', async () => {
    const { user, cookie } = await member()
    const funder = await briefOf(user)
    const up = await post(funder.id, move(2, 'up', 'Young people’s mental health'), cookie)
    expect(up.status).toBe(302)
    expect(up.headers.get('Location')).toBe(`/funders/${funder.id}#priority-2`)
    expect(await toastOf(up)).toMatchObject({
      type: 'success',
      message: 'Moved “Young people’s mental health” up: it is now priority 2 of 3.',
    })
    expect((await saved(funder.id)).priorities).toEqual(['Youth access', 'Young people’s mental health', 'Stewardship'])

    const down = await post(funder.id, move(0, 'down', 'Youth access'), cookie)
    expect(down.status).toBe(302)
    expect(down.headers.get('Location')).toBe(`/funders/${funder.id}#priority-2`)
    const order = ['Young people’s mental health', 'Youth access', 'Stewardship']
    expect((await saved(funder.id)).priorities).toEqual(order)

    const page = await call(funderLoader, getRequest(`/funders/${funder.id}`, { cookie }), { id: funder.id })
    expect(page.body.values.priorities).toEqual(order)
    expect(page.body.funder.priorities).toEqual(order)
    const token = await createSession(user.id, 'api')
    const api = await call(funderApi, getRequest(`/api/funders/${funder.id}`, { token }), { id: funder.id })
    expect(api.body.data.priorities).toEqual(order.map((text) => ({ text })))
    const written = await forFunder(user, { funderId: funder.id })
    expect(JSON.parse(written!.brief).priorities).toEqual(order)
  })

  it('moves nothing past either end', async () => {
    const { user, cookie } = await member()
    const funder = await briefOf(user)
    const before = await saved(funder.id)
    const first = await post(funder.id, move(0, 'up', 'Youth access'), cookie)
    expect(first.status).toBe(400)
    expect(first.body.toast).toMatchObject({ type: 'error', message: '“Youth access” is already first.' })
    const last = await post(funder.id, move(2, 'down', 'Young people’s mental health'), cookie)
    expect(last.status).toBe(400)
    expect(last.body.toast).toMatchObject({ type: 'error', message: '“Young people’s mental health” is already last.' })
    expect(await saved(funder.id)).toEqual(before)
  })

  it('moves nothing when the list is no longer the one the page showed, or the move cannot be read', async () => {
    const { user, cookie } = await member()
    const funder = await briefOf(user)
    const before = await saved(funder.id)
    // A second press: the page still names Stewardship second, where it no longer is.
    for (const stale of [move(1, 'up', 'Young people’s mental health'), move(3, 'up', 'Stewardship'), move(1, 'up', 'stewardship')]) {
      const res = await post(funder.id, stale, cookie)
      expect(res.status).toBe(409)
      expect(res.body.toast.message).toMatch(/^The priorities have changed since this page was shown/)
    }
    for (const unread of [move(1, 'sideways', 'Stewardship'), move(-1, 'up', 'Stewardship'), move(25, 'up', 'Stewardship')]) {
      expect((await post(funder.id, unread, cookie)).status).toBe(400)
    }
    const { priority, ...noPriority } = move(1, 'up', 'Stewardship')
    expect(priority).toBe('Stewardship')
    expect((await post(funder.id, noPriority, cookie)).status).toBe(400)
    expect(await saved(funder.id)).toEqual(before)
  })

  it("is the owner's alone: another member's brief, or an administrator's move of it, is not found", async () => {
    const { user } = await member()
    const funder = await briefOf(user)
    const before = await saved(funder.id)
    const other = await makeApiUser()
    for (const email of [other.user.email, 'admin@example.org']) {
      const cookie = await signIn(email)
      const res = await post(funder.id, move(2, 'up', 'Young people’s mental health'), cookie)
      expect(res.status).toBe(404)
    }
    expect(await saved(funder.id)).toEqual(before)
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
