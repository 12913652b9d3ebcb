import { prisma } from '~/server/platform/db.server'
import { action as createApi, loader as listApi } from '~/routes/api/narratives'
import { action as changeApi, loader as getApi } from '~/routes/api/narrative'
import { action as pageAction, loader as pageLoader } from '~/routes/app/narrative'
import { loader as listPage } from '~/routes/app/narratives'
import { action as loginAction } from '~/routes/public/login'
import { accountExportResponse } from '~/server/accounts/account-export.server'
import { getToast } from '~/server/http/toast.server'
import { EDITS_PER_MINUTE } from '~/server/edge/limits.server'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'

// Where an application stands, from drafting to the funder's answer, with the date of each stage.

beforeEach(resetDatabase)
afterEach(() => vi.useRealTimers())

const { selectedTone: _tone, ...FIELDS } = FULL_INPUT

async function createNarrative(token: string, company = FIELDS.company) {
  const res = await call(
    createApi,
    jsonRequest(
      '/api/narrative',
      { ...FIELDS, company, tone: 'professional', generatedNarrative: 'Served 38,000 people in 2023.' },
      { token },
    ),
  )
  expect(res.status).toBe(201)
  return res.body.data as { id: string; stage: string; createdAt: string; status: string }
}

const patch = (id: string, token: string, body: unknown) =>
  call(changeApi, jsonRequest(`/api/narrative/${id}`, body, { method: 'PATCH', token }), { id })
const read = async (id: string, token: string) => (await call(getApi, getRequest(`/api/narrative/${id}`, { token }), { id })).body.data
/** Sets the clock to a day of 2027, as the writer coming back to the application would. */
const onDay = (day: string) => vi.setSystemTime(new Date(`${day}T10:00:00.000Z`))

describe('the API', () => {
  it('starts every narrative in drafting, from the moment it was made', async () => {
    const { token } = await makeApiUser()
    const created = await createNarrative(token)
    expect(created.stage).toBe('drafting')
    expect((await read(created.id, token)).stages).toEqual([{ stage: 'drafting', at: created.createdAt }])
  })

  it('moves a narrative on with PATCH {stage}, dating each stage it reaches, and leaves the generation status alone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    onDay('2027-01-04')
    const { token } = await makeApiUser()
    const { id } = await createNarrative(token)
    onDay('2027-01-11')
    const review = await patch(id, token, { stage: 'in_review' })
    expect(review.status).toBe(200)
    expect(review.body.data).toMatchObject({ id, stage: 'in_review', status: 'complete' })
    onDay('2027-01-20')
    const submitted = await patch(id, token, { stage: 'submitted' })
    expect(submitted.body.data.stages).toEqual([
      { stage: 'drafting', at: '2027-01-04T10:00:00.000Z' },
      { stage: 'in_review', at: '2027-01-11T10:00:00.000Z' },
      { stage: 'submitted', at: '2027-01-20T10:00:00.000Z' },
    ])
    expect(await read(id, token)).toMatchObject({ stage: 'submitted', status: 'complete', stages: submitted.body.data.stages })
    // The same stage again is no new step: its date stays.
    onDay('2027-01-22')
    expect((await patch(id, token, { stage: 'submitted' })).body.data.stages.at(-1)).toEqual({
      stage: 'submitted',
      at: '2027-01-20T10:00:00.000Z',
    })
  })

  it('forgets the stages after a step back, and lets awarded and declined replace each other', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    onDay('2027-02-01')
    const { token } = await makeApiUser()
    const { id } = await createNarrative(token)
    await patch(id, token, { stage: 'in_review' })
    onDay('2027-02-03')
    await patch(id, token, { stage: 'submitted' })
    await patch(id, token, { stage: 'declined' })
    onDay('2027-02-05')
    // Declined was a slip: the funder said yes.
    const awarded = await patch(id, token, { stage: 'awarded' })
    expect(awarded.body.data.stages.map((reached: { stage: string }) => reached.stage)).toEqual([
      'drafting',
      'in_review',
      'submitted',
      'awarded',
    ])
    onDay('2027-02-06')
    // Back to review: it was never submitted after all.
    const back = await patch(id, token, { stage: 'in_review' })
    expect(back.body.data.stages).toEqual([
      { stage: 'drafting', at: '2027-02-01T10:00:00.000Z' },
      { stage: 'in_review', at: '2027-02-06T10:00:00.000Z' },
    ])
    // A narrative keeps at most one row a stage, however often it moves.
    expect(await prisma.narrativeStage.count({ where: { narrativeId: id } })).toBe(1)
  })

  it('refuses a stage that is none of the five with 400 and the list, and changes nothing', async () => {
    const { token } = await makeApiUser()
    const { id } = await createNarrative(token)
    for (const body of [{ stage: 'won' }, { stage: 'Submitted' }, {}, { status: 'submitted' }, { stage: 3 }]) {
      const res = await patch(id, token, body)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('stage must be one of drafting, in_review, submitted, awarded, declined')
    }
    expect(await read(id, token)).toMatchObject({ stage: 'drafting', status: 'complete' })
  })

  it("answers 404 for another person's narrative and leaves its stage alone", async () => {
    const owner = await makeApiUser()
    const stranger = await makeApiUser()
    const { id } = await createNarrative(owner.token)
    expect((await patch(id, stranger.token, { stage: 'awarded' })).status).toBe(404)
    expect((await read(id, owner.token)).stage).toBe('drafting')
  })

  it('counts stage changes with the text edits of the minute', async () => {
    const { token } = await makeApiUser()
    const { id } = await createNarrative(token)
    const stages = ['in_review', 'submitted']
    for (let change = 0; change < EDITS_PER_MINUTE; change++)
      expect((await patch(id, token, { stage: stages[change % 2] })).status).toBe(200)
    const refused = await patch(id, token, { stage: 'awarded' })
    expect(refused.status).toBe(429)
    expect((await read(id, token)).stage).not.toBe('awarded')
  })

  it('filters the list by stage, and refuses a stage it does not know', async () => {
    const { token } = await makeApiUser()
    const drafting = await createNarrative(token, 'Drafting Pantry')
    const submitted = await createNarrative(token, 'Submitted Orchard')
    await patch(submitted.id, token, { stage: 'submitted' })
    const list = await call(listApi, getRequest('/api/narrative?stage=submitted', { token }))
    expect(list.body.data.map((narrative: { id: string; stage: string }) => [narrative.id, narrative.stage])).toEqual([
      [submitted.id, 'submitted'],
    ])
    const all = await call(listApi, getRequest('/api/narrative', { token }))
    expect(all.body.data.map((narrative: { id: string }) => narrative.id).sort()).toEqual([drafting.id, submitted.id].sort())
    const searched = await call(listApi, getRequest('/api/narrative?stage=drafting&q=Pantry', { token }))
    expect(searched.body.data.map((narrative: { id: string }) => narrative.id)).toEqual([drafting.id])
    const wrong = await call(listApi, getRequest('/api/narrative?stage=won', { token }))
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toMatch(/^stage must be one of/)
  })

  it("is in the person's data export, with the date of each stage, and goes with the narrative", async () => {
    const { user, token } = await makeApiUser()
    const { id, createdAt } = await createNarrative(token)
    const moved = (await patch(id, token, { stage: 'in_review' })).body.data.stages
    const exported = JSON.parse(await accountExportResponse(user).text())
    expect(exported.narratives[0]).toMatchObject({ id, stage: 'in_review', stages: moved })
    expect(moved[0]).toEqual({ stage: 'drafting', at: createdAt })
    await prisma.narrative.delete({ where: { id } })
    expect(await prisma.narrativeStage.count()).toBe(0)
  })
})

describe('the pages, without JavaScript', () => {
  async function signIn(email: string) {
    return cookiesFrom((await call(loginAction, formRequest('/login', { email, password: PASSWORD }))).headers)
  }
  const toastOf = async (res: { headers: Headers }) =>
    (await getToast(new Request('http://localhost', { headers: { Cookie: cookiesFrom(res.headers) } }))).toast

  it('shows the stage and the way it came, and moves it with a form post', async () => {
    const { user, token } = await makeApiUser()
    const { id } = await createNarrative(token)
    const cookie = await signIn(user.email)
    const moved = await call(pageAction, formRequest(`/admin/narratives/${id}`, { intent: 'stage', stage: 'submitted' }, { cookie }), {
      id,
    })
    expect(moved.status).toBe(302)
    expect(moved.headers.get('Location')).toBe(`/admin/narratives/${id}#stage`)
    expect(await toastOf(moved)).toMatchObject({ type: 'success', message: 'Stage set to Submitted.' })
    const page = await call(pageLoader, getRequest(`/admin/narratives/${id}`, { cookie }), { id })
    expect(page.body.stage).toBe('submitted')
    expect(page.body.stages.map((reached: { stage: string }) => reached.stage)).toEqual(['drafting', 'submitted'])
  })

  it('keeps the stage and says so when the form sends a stage that is not one', async () => {
    const { user, token } = await makeApiUser()
    const { id } = await createNarrative(token)
    const cookie = await signIn(user.email)
    const refused = await call(pageAction, formRequest(`/admin/narratives/${id}`, { intent: 'stage', stage: 'won' }, { cookie }), { id })
    expect(refused.headers.get('Location')).toBe(`/admin/narratives/${id}#stage`)
    expect(await toastOf(refused)).toMatchObject({ type: 'error', message: 'Please choose a stage.' })
    expect((await read(id, token)).stage).toBe('drafting')
  })

  it('lists each narrative with its stage, filtered by ?stage=, and ignores a stage it does not know', async () => {
    const { user, token } = await makeApiUser()
    const drafting = await createNarrative(token, 'Drafting Pantry')
    const awarded = await createNarrative(token, 'Awarded Orchard')
    await patch(awarded.id, token, { stage: 'awarded' })
    const cookie = await signIn(user.email)
    const filtered = await call(listPage, getRequest('/admin/narratives?stage=awarded', { cookie }))
    expect(filtered.body.filters).toEqual({ stage: 'awarded' })
    expect(filtered.body.narratives).toEqual([expect.objectContaining({ id: awarded.id, stage: 'Awarded' })])
    const lenient = await call(listPage, getRequest('/admin/narratives?stage=won', { cookie }))
    expect(lenient.body.filters).toEqual({})
    expect(lenient.body.narratives.map((row: { id: string; stage: string }) => [row.id, row.stage]).sort()).toEqual(
      [
        [drafting.id, 'Drafting'],
        [awarded.id, 'Awarded'],
      ].sort(),
    )
  })
})
