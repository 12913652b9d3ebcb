import { prisma } from '~/server/platform/db.server'
import { loader as listApi, action as createApi } from '~/routes/api/narratives'
import { loader as getApi, action as changeApi } from '~/routes/api/narrative'
import { loader as docxApi } from '~/routes/api/narrative-download'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { action as loginAction } from '~/routes/public/login'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import { listNarratives, toFormValues } from '~/server/narratives/narratives.server'
import { NARRATIVE_FIELDS } from '~/shared/narrative-schema'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest, routeArgs } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'

beforeEach(resetDatabase)

const { selectedTone, ...fields } = FULL_INPUT
const RECORD = {
  ...fields,
  contactName2: 'Sam Ortiz',
  contactTitle2: 'Programs Lead',
  contactEmail2: 'sam@harvesttable.org',
  contactPhone2: '512-555-0199',
  tone: 'passionate',
  generatedNarrative: 'First paragraph.\n\nSecond paragraph.',
}

async function create(token: string, body: Record<string, unknown> = RECORD) {
  return call(createApi, jsonRequest('/api/narrative', body, { token }))
}

/** Three actors: the admin (first account), an owner and another ordinary user. */
async function actors() {
  const admin = await makeApiUser({ email: 'admin@example.org' })
  const owner = await makeApiUser({ email: 'owner@example.org', firstName: 'Olive', lastName: 'Owner' })
  const other = await makeApiUser({ email: 'other@example.org' })
  return { admin, owner, other }
}

describe('POST /api/narrative', () => {
  it('creates the record and answers 201 with the read shape', async () => {
    const { owner } = await actors()
    const res = await create(owner.token)
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({
      id: expect.any(String),
      company: 'Harvest Table Food Bank',
      website: 'https://www.harvesttable.org',
      generatedNarrative: 'First paragraph.\n\nSecond paragraph.',
      tone: 'passionate',
      selectedTone: 'passionate',
      status: 'complete',
      stage: 'drafting',
      engine: 'manual',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      user: { first_name: 'Olive', last_name: 'Owner', email: 'owner@example.org' },
      missionStatement: FULL_INPUT.missionStatement,
      keyActivities: FULL_INPUT.keyPrograms,
      keyAchievements: FULL_INPUT.impactMetrics,
      targetPopulation: FULL_INPUT.targetAudience,
      geographicFocus: FULL_INPUT.geographicFocus,
      successStory: '',
      c_name1: 'Maria Delgado',
      c_title1: 'Executive Director',
      c_email1: 'maria@harvesttable.org',
      c_phone1: '512-555-0142',
      c_name2: 'Sam Ortiz',
      c_title2: 'Programs Lead',
      c_email2: 'sam@harvesttable.org',
      c_phone2: '512-555-0199',
      claims: [],
      wordCount: 4,
      funder: null,
      amountRequested: null,
      deadline: null,
      alignment: [],
      coverage: null,
    })
  })

  it('keeps the success story or quote, reads it back, and traces the text’s claims to it', async () => {
    const { owner } = await actors()
    const successStory = '"Choosing my own food meant I could still cook for my kids," Dana Ruiz told us.'
    const created = await create(owner.token, { ...RECORD, successStory, generatedNarrative: 'Dana Ruiz could still cook for her kids.' })
    expect(created.body.data).toMatchObject({ successStory, claims: [{ text: 'Dana Ruiz', supported: true, fields: ['successStory'] }] })
    const id = created.body.data.id
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, { token: owner.token }), { id })).body.data.successStory).toBe(
      successStory,
    )
  })

  it('sets the owner from the token, never from the body, and uses no quota', async () => {
    const { owner, other } = await actors()
    const res = await create(owner.token, { ...RECORD, userId: other.user.id, user: { email: 'x' }, isAdmin: true })
    expect((await prisma.narrative.findUniqueOrThrow({ where: { id: res.body.data.id } })).userId).toBe(owner.user.id)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: owner.user.id } })).quotaUsed).toBe(0)
  })

  it('refuses invalid records with 400 and writes nothing', async () => {
    const { owner } = await actors()
    expect((await create(owner.token, { ...RECORD, company: '' })).status).toBe(400)
    expect((await create(owner.token, { ...RECORD, tone: 'sarcastic' })).status).toBe(400)
    expect((await create(owner.token, { ...RECORD, missionStatement: 'x'.repeat(1_000_000) })).status).toBe(400)
    expect(await prisma.narrative.count()).toBe(0)
  })
})

describe('GET /api/narrative', () => {
  it('pages newest first with the documented pagination', async () => {
    const { owner } = await actors()
    for (let i = 1; i <= 12; i++) await create(owner.token, { ...RECORD, company: `Org ${i}` })
    const first = await call(listApi, getRequest('/api/narrative?page=1&limit=5', { token: owner.token }))
    expect(first.body.pagination).toEqual({ page: 1, limit: 5, total: 12, pages: 3 })
    expect(first.body.data.map((n: { company: string }) => n.company)).toEqual(['Org 12', 'Org 11', 'Org 10', 'Org 9', 'Org 8'])
    const last = await call(listApi, getRequest('/api/narrative?page=3&limit=5', { token: owner.token }))
    expect(last.body.data.map((n: { company: string }) => n.company)).toEqual(['Org 2', 'Org 1'])
    const defaults = await call(listApi, getRequest('/api/narrative', { token: owner.token }))
    expect(defaults.body.pagination).toEqual({ page: 1, limit: 10, total: 12, pages: 2 })
  })

  it.each([['page=abc'], ['page=0'], ['limit=0'], ['limit=10000'], ['limit=2.5']])('answers ?%s with 400', async (query) => {
    const { owner } = await actors()
    const res = await call(listApi, getRequest(`/api/narrative?${query}`, { token: owner.token }))
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/page|limit/)
  })

  it("shows each user only their own, and the admin everyone's", async () => {
    const { admin, owner, other } = await actors()
    await create(owner.token)
    await create(other.token, { ...RECORD, company: 'Other Org' })
    const mine = await call(listApi, getRequest('/api/narrative', { token: owner.token }))
    expect(mine.body.data.map((n: { company: string }) => n.company)).toEqual(['Harvest Table Food Bank'])
    const all = await call(listApi, getRequest('/api/narrative', { token: admin.token }))
    expect(all.body.pagination.total).toBe(2)
    expect(all.body.data.map((n: { user: { email: string } }) => n.user.email).sort()).toEqual(['other@example.org', 'owner@example.org'])
  })

  it('requires a token', async () => {
    expect((await call(listApi, getRequest('/api/narrative'))).status).toBe(401)
  })
})

describe('/api/narrative/:id', () => {
  it('reads, updates only the text, downloads and deletes for the owner', async () => {
    const { owner } = await actors()
    const { id } = (await create(owner.token)).body.data
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, { token: owner.token }), { id })).body.data.id).toBe(id)

    const put = await call(
      changeApi,
      jsonRequest(
        `/api/narrative/${id}`,
        { generatedNarrative: 'Edited text.', company: 'Hijacked', userId: 'x', isAdmin: true },
        { method: 'PUT', token: owner.token },
      ),
      { id },
    )
    expect(put.status).toBe(200)
    expect(put.body.data).toMatchObject({ generatedNarrative: 'Edited text.', company: 'Harvest Table Food Bank' })

    const docx = (await docxApi(routeArgs(getRequest(`/api/narrative/${id}/docx`, { token: owner.token }), { id }))) as Response
    expect(docx.status).toBe(200)
    expect(docx.headers.get('Content-Disposition')).toMatch(/\.docx"$/)

    const del = await call(
      changeApi,
      new Request(`https://x.test/api/narrative/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${owner.token}` } }),
      { id },
    )
    expect(del.status).toBe(200)
    expect(await prisma.narrative.count()).toBe(0)
  })

  it("answers 404 for another user's id in every verb, changing nothing", async () => {
    const { owner, other } = await actors()
    const { id } = (await create(owner.token)).body.data
    const asOther = { token: other.token }
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, asOther), { id })).status).toBe(404)
    expect(
      (
        await call(changeApi, jsonRequest(`/api/narrative/${id}`, { generatedNarrative: 'mine now' }, { method: 'PUT', ...asOther }), {
          id,
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await call(
          changeApi,
          new Request(`https://x.test/api/narrative/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${other.token}` } }),
          { id },
        )
      ).status,
    ).toBe(404)
    expect((await call(docxApi, getRequest(`/api/narrative/${id}/docx`, asOther), { id })).status).toBe(404)
    expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).generatedNarrative).toBe(RECORD.generatedNarrative)
  })

  it("lets the admin read, edit and delete anyone's narrative", async () => {
    const { admin, owner } = await actors()
    const { id } = (await create(owner.token)).body.data
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, { token: admin.token }), { id })).status).toBe(200)
    expect(
      (
        await call(
          changeApi,
          jsonRequest(`/api/narrative/${id}`, { generatedNarrative: 'By admin' }, { method: 'PUT', token: admin.token }),
          { id },
        )
      ).status,
    ).toBe(200)
  })

  it('answers an unknown or malformed id with 404', async () => {
    const { owner } = await actors()
    for (const id of ['does-not-exist', "1' OR '1'='1", '../../etc/passwd']) {
      expect((await call(getApi, getRequest(`/api/narrative/x`, { token: owner.token }), { id })).status).toBe(404)
    }
  })

  it('refuses an empty or over-long text with 400 and keeps the old one', async () => {
    const { owner } = await actors()
    const { id } = (await create(owner.token)).body.data
    const put = (text: string) =>
      call(changeApi, jsonRequest(`/api/narrative/${id}`, { generatedNarrative: text }, { method: 'PUT', token: owner.token }), { id })
    const empty = await put('   ')
    expect(empty.status).toBe(400)
    expect(empty.body.details.generatedNarrative).toEqual(['The narrative cannot be empty'])
    const huge = await put('x'.repeat(1024 * 1024))
    expect(huge.status).toBe(400)
    expect(huge.body.details.generatedNarrative[0]).toContain(String(NARRATIVE_TEXT_MAX))
    expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).generatedNarrative).toBe(RECORD.generatedNarrative)
  })
})

describe('edit to regenerate', () => {
  it('maps every stored field back to the form, the secondary phone included', async () => {
    const { owner } = await actors()
    const { id } = (await create(owner.token)).body.data
    const values = toFormValues(await prisma.narrative.findUniqueOrThrow({ where: { id } }))
    expect(Object.keys(values).sort()).toEqual([...NARRATIVE_FIELDS].sort())
    expect(values).toEqual({
      ...fields,
      contactName2: 'Sam Ortiz',
      contactTitle2: 'Programs Lead',
      contactEmail2: 'sam@harvesttable.org',
      contactPhone2: '512-555-0199',
      successStory: '',
      selectedTone: 'passionate',
    })
  })

  it("fills the dashboard from a narrative the viewer owns, and from nobody else's", async () => {
    const { owner } = await actors()
    const { id } = (await create(owner.token)).body.data
    const signIn = async (email: string) =>
      cookiesFrom((await call(loginAction, formRequest('/login', { email, password: PASSWORD }))).headers)
    const mine = await call(dashboardLoader, getRequest(`/dashboard?from=${id}`, { cookie: await signIn('owner@example.org') }))
    expect(mine.body.formValues).toMatchObject({
      company: 'Harvest Table Food Bank',
      contactPhone2: '512-555-0199',
      selectedTone: 'passionate',
    })
    const theirs = await call(dashboardLoader, getRequest(`/dashboard?from=${id}`, { cookie: await signIn('other@example.org') }))
    expect(theirs.body.formValues).toBeNull()
  })
})

describe('listNarratives', () => {
  it("returns page 1 of 1 for nobody's narratives", async () => {
    const { owner } = await actors()
    expect((await listNarratives({ viewer: owner.user, page: 1 })).pagination).toEqual({ page: 1, limit: 10, total: 0, pages: 1 })
  })

  it('gives each listed narrative exactly what Prisma reads for it: dates as Dates, every column, its owner', async () => {
    const { owner } = await actors()
    const created = await call(
      createApi,
      jsonRequest('/api/narrative', { ...FULL_INPUT, generatedNarrative: 'Text.' }, { token: owner.token }),
    )
    const stored = await prisma.narrative.findUniqueOrThrow({
      where: { id: created.body.data.id },
      include: { user: { select: { firstName: true, lastName: true, email: true } } },
    })
    const [listed] = (await listNarratives({ viewer: owner.user, page: 1 })).data
    expect(listed.createdAt).toBeInstanceOf(Date)
    expect(listed.updatedAt).toBeInstanceOf(Date)
    expect(listed).toEqual(stored)
  })
})
