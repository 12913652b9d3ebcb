import fs from 'node:fs'
import { dialect, prisma } from '~/server/platform/db.server'
import { action as fundersAction, loader as fundersLoader } from '~/routes/api/funders'
import { action as funderAction, loader as funderLoader } from '~/routes/api/funder'
import { action as extractAction } from '~/routes/api/funders-extract'
import { action as createNarrativeAction, loader as listNarrativesApi } from '~/routes/api/narratives'
import { loader as narrativeApi, action as changeNarrativeApi } from '~/routes/api/narrative'
import { action as restoreApi } from '~/routes/api/narrative-version-restore'
import { loader as versionsApi } from '~/routes/api/narrative-versions'
import { action as variantsAction } from '~/routes/api/narrative-variants'
import { loader as exportApi } from '~/routes/auth/profile-export'
import { deleteAccount } from '~/server/accounts/account.server'
import { resetDatabase, tableColumns } from '../setup/db'
import { FOOD_BANK } from '../fixtures/organisations'
import { call, getRequest, jsonRequest } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'
import { BINARY_TXT, FAKE_PDF, largeText, loopingPdf, multipart, zipBombDocx, zipNotDocx } from '../../scripts/hostile/call-files'

beforeEach(resetDatabase)

const ORIGIN = 'https://narratives.example.org'
const CORPORATE = fs.readFileSync('tests/fixtures/funders/corporate-giving.txt', 'utf8')
const fixture = (name: string) => fs.readFileSync(`tests/fixtures/funders/${name}`)

function formRequest(path: string, form: FormData, token: string) {
  return new Request(ORIGIN + path, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
}

async function createBrief(token: string, body: Record<string, unknown> = { name: 'Acme Outfitters', callText: CORPORATE }) {
  return call(fundersAction, jsonRequest('/api/funders', body, { token }))
}

const { selectedTone, ...organisation } = FOOD_BANK.input
const NARRATIVE_TEXT =
  'Lane County Food Share exists to make sure no one in Lane County goes hungry. It runs 32 partner pantry sites and a mobile pantry for rural towns. In 2023 it distributed 2.8 million pounds of food and served 61,000 people. We ask the Lane County Community Foundation for $25,000.'

describe('POST /api/funders/extract', () => {
  it('reads a pasted call and saves nothing', async () => {
    const { token } = await makeApiUser()
    const res = await call(extractAction, jsonRequest('/api/funders/extract', { text: CORPORATE }, { token }))
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      name: 'Acme Outfitters Community Giving',
      priorities: [
        { text: 'Youth access to the outdoors, especially for young people from underserved communities' },
        { text: 'Environmental stewardship: conservation projects that involve volunteers' },
        { text: 'Workforce development: job skills and training for careers in outdoor recreation' },
      ],
      questions: [],
      maxWords: 300,
      amountMax: 15000,
      currency: '$',
    })
    expect(res.body.data.amountMin).toBeUndefined()
    expect(res.body.data.deadline).toBeUndefined()
    expect(res.body.data.terms).toEqual(
      expect.arrayContaining(['outdoor access for all', 'environmental stewardship', 'workforce development']),
    )
    expect(await prisma.funder.count()).toBe(0)
  })

  it("reads a community foundation's Word file: priorities in order, questions with their limits, the deadline, the amounts", async () => {
    const { token } = await makeApiUser()
    const form = multipart({}, { name: 'community-foundation.docx', bytes: fixture('community-foundation.docx') })
    const res = await call(extractAction, formRequest('/api/funders/extract', form, token))
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      name: 'Lane County Community Foundation',
      priorities: [
        { text: 'Food security: reducing hunger among families, children and older adults' },
        { text: "Rural reach: services that reach residents of the county's rural towns" },
        { text: 'Measurable outcomes: clear evidence of the difference the work makes' },
        { text: 'Sustainability: a credible plan to continue the work after the grant ends' },
        { text: 'Community voice: programs shaped by people with lived experience' },
      ],
      questions: [
        { text: 'Describe the need your project addresses and who experiences it.', maxWords: 250 },
        { text: 'How will you measure the difference your project makes?', maxWords: 200 },
        { text: 'How will the work continue after the grant period?', maxWords: 150 },
      ],
      maxWords: 500,
      deadline: '2027-03-13',
      amountMin: 10000,
      amountMax: 40000,
      currency: '$',
      terms: expect.arrayContaining(['lived experience', 'food security', 'community voice', 'measurable outcomes']),
    })
    // "What we do not fund" is no priority.
    expect(JSON.stringify(res.body.data.priorities)).not.toMatch(/Capital campaigns|Religious/)
  })

  it("reads a government programme's PDF: the criteria of its table that say what the project will do, most heavily weighted first, and its character limits", async () => {
    const { token } = await makeApiUser()
    const form = multipart({}, { name: 'government-programme.pdf', bytes: fixture('government-programme.pdf') })
    const res = await call(extractAction, formRequest('/api/funders/extract', form, token))
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      name: 'Department for Rural Affairs',
      priorities: [
        // Need, delivery, value for money and legacy score the application; only this row says what the project will do.
        { text: 'Strategic fit: Improves access to healthy food in rural areas' },
      ],
      questions: [
        { text: 'Summarise your project.', maxCharacters: 1500 },
        { text: 'What is the evidence of need in your area?', maxCharacters: 3000 },
        { text: 'Who will you work with to deliver the project?', maxCharacters: 2000 },
      ],
      maxWords: 1000,
      deadline: '2027-04-30',
      amountMin: 25000,
      amountMax: 150000,
      currency: '£',
    })
  })

  it.each([
    ['an empty file', 'call.pdf', Buffer.alloc(0), 400, /empty/],
    ['text named .pdf', 'call.pdf', FAKE_PDF, 415, /named \.pdf but is not a PDF/],
    ['a program named .txt', 'call.txt', BINARY_TXT, 415, /not text/],
    ['a spreadsheet', 'call.xlsx', Buffer.from('PK'), 415, /\.docx, \.pdf, \.txt or \.md/],
    ['a zip that is no Word file', 'call.docx', zipNotDocx(), 422, /could not be read/],
    ['a PDF whose page tree loops', 'call.pdf', loopingPdf(), 422, /could not be read/],
    ['a zip bomb that says what it unpacks to', 'call.docx', zipBombDocx(100, { honest: true }), 413, /unpacks to more than 64 MB/],
    [
      'a zip bomb that lies about it',
      'call.docx',
      zipBombDocx(600, { honest: false }),
      422,
      /too much memory|took too long|could not be read/,
    ],
    ['a file over 5 MB', 'call.txt', largeText(5 * 1024 * 1024 + 1), 413, /larger than 5 MB/],
  ])(
    'refuses %s with a status and a message saying what to do',
    async (_, name, bytes, status, message) => {
      const { token } = await makeApiUser()
      const res = await call(extractAction, formRequest('/api/funders/extract', multipart({}, { name, bytes }), token))
      expect(res.status).toBe(status)
      expect(res.body.error).toMatch(message)
    },
    30_000,
  )

  it('needs a token, and counts the calls a user has read', async () => {
    expect((await call(extractAction, jsonRequest('/api/funders/extract', { text: CORPORATE }))).status).toBe(401)
    const { token } = await makeApiUser()
    const statuses = []
    for (let i = 0; i < 21; i++)
      statuses.push((await call(extractAction, jsonRequest('/api/funders/extract', { text: 'Short call.' }, { token }))).status)
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true)
    expect(statuses[20]).toBe(429)
  })
})

describe('/api/funders', () => {
  it('saves a brief, reading what is not given from the call, and reads it back', async () => {
    const { token } = await makeApiUser()
    const created = await createBrief(token, { name: 'Acme Outfitters', callText: CORPORATE, deadline: '2027-09-30', maxWords: 250 })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({
      id: expect.any(String),
      name: 'Acme Outfitters',
      callText: CORPORATE.trim(),
      source: 'pasted',
      priorities: expect.arrayContaining([{ text: 'Environmental stewardship: conservation projects that involve volunteers' }]),
      deadline: '2027-09-30',
      maxWords: 250,
      amountMax: 15000,
    })
    const read = await call(funderLoader, getRequest(`/api/funders/${created.body.data.id}`, { token }), { id: created.body.data.id })
    expect(read.body.data).toEqual(created.body.data)
    const list = await call(fundersLoader, getRequest('/api/funders', { token }))
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0].callText).toBeUndefined()
  })

  it('takes the priorities given instead of reading them, and a file in a form', async () => {
    const { token } = await makeApiUser()
    const given = await createBrief(token, { name: 'Acme', callText: CORPORATE, priorities: [{ text: 'Outdoor access' }] })
    expect(given.body.data.priorities).toEqual([{ text: 'Outdoor access' }])
    const form = multipart(
      { name: 'Lane County Community Foundation' },
      { name: 'community-foundation.docx', bytes: fixture('community-foundation.docx') },
    )
    const uploaded = await call(fundersAction, formRequest('/api/funders', form, token))
    expect(uploaded.status).toBe(201)
    expect(uploaded.body.data).toMatchObject({ source: 'community-foundation.docx', deadline: '2027-03-13', maxWords: 500 })
    expect(uploaded.body.data.callText).toContain('## Funding priorities')
  })

  it('corrects what was understood: a priority edited, one removed, one added, a limit fixed', async () => {
    const { token } = await makeApiUser()
    const { id, priorities } = (await createBrief(token)).body.data
    const corrected = [{ text: 'Youth access to the outdoors' }, priorities[2], { text: 'Climate resilience' }]
    const res = await call(
      funderAction,
      jsonRequest(
        `/api/funders/${id}`,
        { priorities: corrected, maxWords: 280, questions: [{ text: 'What do you do?', maxCharacters: 500 }] },
        { method: 'PUT', token },
      ),
      { id },
    )
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      priorities: corrected,
      maxWords: 280,
      questions: [{ text: 'What do you do?', maxCharacters: 500 }],
    })
    const cleared = await call(funderAction, jsonRequest(`/api/funders/${id}`, { maxWords: null }, { method: 'PUT', token }), { id })
    expect(cleared.body.data.maxWords).toBeNull()
    const invalid = await call(
      funderAction,
      jsonRequest(`/api/funders/${id}`, { amountMin: 500, amountMax: 100 }, { method: 'PUT', token }),
      { id },
    )
    expect(invalid).toMatchObject({ status: 400, body: { error: 'amountMin must not be more than amountMax' } })
  })

  it('keeps priorities in the order sent, most important first: a reordered list is the new order', async () => {
    const { token } = await makeApiUser()
    const { id, priorities } = (await createBrief(token)).body.data
    expect(priorities.length).toBeGreaterThan(1)
    const reordered = [...priorities].reverse()
    const res = await call(funderAction, jsonRequest(`/api/funders/${id}`, { priorities: reordered }, { method: 'PUT', token }), { id })
    expect(res.body.data.priorities).toEqual(reordered)
    expect((await call(funderLoader, getRequest(`/api/funders/${id}`, { token }), { id })).body.data.priorities).toEqual(reordered)
  })

  it('is owner-scoped: another user, and an administrator, get 404 in every verb', async () => {
    const admin = await makeApiUser({ email: 'admin@example.org' })
    const owner = await makeApiUser()
    const other = await makeApiUser()
    const { id } = (await createBrief(owner.token)).body.data
    for (const actor of [admin, other]) {
      expect((await call(funderLoader, getRequest(`/api/funders/${id}`, { token: actor.token }), { id })).status).toBe(404)
      const put = await call(funderAction, jsonRequest(`/api/funders/${id}`, { name: 'Mine' }, { method: 'PUT', token: actor.token }), {
        id,
      })
      expect(put).toMatchObject({ status: 404, body: { error: 'Funder brief not found' } })
      expect(
        (
          await call(
            funderAction,
            new Request(`${ORIGIN}/api/funders/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${actor.token}` } }),
            { id },
          )
        ).status,
      ).toBe(404)
      expect((await call(fundersLoader, getRequest('/api/funders', { token: actor.token }))).body.data).toEqual([])
    }
    expect((await prisma.funder.findUniqueOrThrow({ where: { id } })).name).toBe('Acme Outfitters')
  })

  it('deletes a brief; the narratives written for it keep its name, their brief and their alignment', async () => {
    const { token } = await makeApiUser()
    const { id } = (await createBrief(token)).body.data
    const created = await call(
      createNarrativeAction,
      jsonRequest('/api/narrative', { ...organisation, generatedNarrative: 'Text.', funderId: id }, { token }),
    )
    const deleted = await call(
      funderAction,
      new Request(`${ORIGIN}/api/funders/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } }),
      { id },
    )
    expect(deleted.status).toBe(200)
    const read = await call(narrativeApi, getRequest(`/api/narrative/${created.body.data.id}`, { token }), { id: created.body.data.id })
    expect(read.body.data.funder).toEqual({ id: null, name: 'Acme Outfitters' })
    expect(read.body.data.alignment).toHaveLength(3)
  })
})

describe('narratives written for a brief', () => {
  async function foundationBrief(token: string) {
    const form = multipart(
      { name: 'Lane County Community Foundation' },
      { name: 'community-foundation.docx', bytes: fixture('community-foundation.docx') },
    )
    return (await call(fundersAction, formRequest('/api/funders', form, token))).body.data
  }

  it('carries the funder, the amount, the deadline, the alignment per priority and the coverage', async () => {
    const { token } = await makeApiUser()
    const brief = await foundationBrief(token)
    const res = await call(
      createNarrativeAction,
      jsonRequest(
        '/api/narrative',
        { ...organisation, generatedNarrative: NARRATIVE_TEXT, funderId: brief.id, amountRequested: '$25,000' },
        { token },
      ),
    )
    expect(res.status).toBe(201)
    const { data } = res.body
    expect(data).toMatchObject({
      funder: { id: brief.id, name: 'Lane County Community Foundation' },
      amountRequested: '$25,000',
      deadline: '2027-03-13',
    })
    // The ask's funder and amount are the user's inputs too: no claim of the text is unsupported.
    expect(data.claims.filter((claim: { supported: boolean }) => !claim.supported)).toEqual([])
    expect(data.alignment.map((item: { state: string }) => item.state)).toEqual(['answered', 'answered', 'answered', 'missing', 'missing'])
    expect(data.alignment[0]).toMatchObject({
      priority: 'Food security: reducing hunger among families, children and older adults',
      sentences: expect.arrayContaining(['Lane County Food Share exists to make sure no one in Lane County goes hungry.']),
      fields: expect.arrayContaining(['missionStatement', 'keyPrograms']),
    })
    expect(data.alignment[1].sentences).toEqual(['It runs 32 partner pantry sites and a mobile pantry for rural towns.'])
    expect(data.alignment[2]).toMatchObject({
      sentences: ['In 2023 it distributed 2.8 million pounds of food and served 61,000 people.'],
      fields: ['impactMetrics'],
    })
    expect(data.alignment[3].gap).toBe(
      'The call asks about “Sustainability: a credible plan to continue the work after the grant ends”; your inputs say nothing about it. If you do this work, add it to Key Programs and Services.',
    )
    expect(data.coverage).toBe(0.6)
  })

  it('finds the alignment again when the text is edited and when a version is restored', async () => {
    const { token } = await makeApiUser()
    const brief = await foundationBrief(token)
    const { id } = (
      await call(
        createNarrativeAction,
        jsonRequest('/api/narrative', { ...organisation, generatedNarrative: NARRATIVE_TEXT, funderId: brief.id }, { token }),
      )
    ).body.data
    // A sentence about sustaining the work that the inputs do not back: said without support.
    const edited = `${NARRATIVE_TEXT} After the grant ends, we will continue the work through a sustainability plan of diversified income.`
    const put = await call(
      changeNarrativeApi,
      jsonRequest(`/api/narrative/${id}`, { generatedNarrative: edited }, { method: 'PUT', token }),
      { id },
    )
    expect(put.body.data.alignment[3]).toMatchObject({ state: 'unsupported', fields: [] })
    expect(put.body.data.alignment[3].gap).toMatch(/your inputs give nothing behind it/)
    const versions = (await call(versionsApi, getRequest(`/api/narrative/${id}/versions`, { token }), { id })).body.data
    const first = versions.at(-1).id
    const restored = await call(
      restoreApi,
      new Request(`${ORIGIN}/api/narrative/${id}/versions/${first}/restore`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      }),
      { id, versionId: first },
    )
    expect(restored.body.data.alignment[3].state).toBe('missing')
    expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).alignment).toContain('"missing"')
  })

  it("refuses a brief that is not the user's, and an amount asked of no funder", async () => {
    const owner = await makeApiUser()
    const other = await makeApiUser()
    const brief = await foundationBrief(owner.token)
    const foreign = await call(
      createNarrativeAction,
      jsonRequest('/api/narrative', { ...organisation, generatedNarrative: 'x', funderId: brief.id }, { token: other.token }),
    )
    expect(foreign).toMatchObject({ status: 400, body: { error: 'funderId names no funder brief of yours' } })
    const noFunder = await call(
      createNarrativeAction,
      jsonRequest('/api/narrative', { ...organisation, generatedNarrative: 'x', amountRequested: '$5,000' }, { token: other.token }),
    )
    expect(noFunder.status).toBe(400)
  })
})

describe('a question of the call answered as a variant', () => {
  it('is refused for a narrative whose brief has no such question, and without a question', async () => {
    const { token } = await makeApiUser()
    const created = await call(
      createNarrativeAction,
      jsonRequest('/api/narrative', { ...organisation, generatedNarrative: NARRATIVE_TEXT }, { token }),
    )
    const { id } = created.body.data
    const asked = await call(variantsAction, jsonRequest(`/api/narrative/${id}/variants`, { format: 'question', question: 0 }, { token }), {
      id,
    })
    expect(asked).toMatchObject({ status: 404, body: { error: 'Question not found' } })
    const unnamed = await call(variantsAction, jsonRequest(`/api/narrative/${id}/variants`, { format: 'question' }, { token }), { id })
    expect(unnamed).toMatchObject({
      status: 400,
      body: { error: "Choose one of the call's questions to answer" },
    })
    expect(await prisma.narrativeVariant.count()).toBe(0)
  })
})

describe('GET /api/narrative: finding work by funder', () => {
  async function seed() {
    await makeApiUser({ email: 'admin@example.org' })
    const { user, token } = await makeApiUser()
    const acme = (await createBrief(token)).body.data
    const lane = (
      await createBrief(token, {
        name: 'Lane County Community Foundation',
        callText: 'Food security. Applications close on March 13, 2099.',
        deadline: '2099-03-13',
      })
    ).body.data
    const soon = (await createBrief(token, { name: 'Soon Fund', callText: 'Anything.', deadline: '2098-01-01' })).body.data
    const past = (await createBrief(token, { name: 'Past Fund', callText: 'Anything.', deadline: '2001-01-01' })).body.data
    const make = async (fields: Record<string, unknown>, createdAt: string) => {
      const res = await call(
        createNarrativeAction,
        jsonRequest('/api/narrative', { ...organisation, generatedNarrative: 'A narrative about pantries.', ...fields }, { token }),
      )
      await prisma.narrative.update({ where: { id: res.body.data.id }, data: { createdAt: new Date(createdAt) } })
      return res.body.data.id as string
    }
    const ids = {
      plain: await make({}, '2026-01-10T10:00:00Z'),
      acme: await make({ funderId: acme.id, tone: 'passionate' }, '2026-02-10T10:00:00Z'),
      lane: await make({ funderId: lane.id, generatedNarrative: 'Our orchard of kumquats feeds the valley.' }, '2026-03-10T10:00:00Z'),
      soon: await make({ funderId: soon.id }, '2026-04-10T10:00:00Z'),
      past: await make({ funderId: past.id, company: 'Riverside Kumquat Co-op' }, '2026-05-10T10:00:00Z'),
    }
    const other = await makeApiUser()
    await call(
      createNarrativeAction,
      jsonRequest('/api/narrative', { ...organisation, generatedNarrative: 'Kumquats for Acme.' }, { token: other.token }),
    )
    return { user, token, ids, acme }
  }
  const list = async (token: string, query: string) =>
    (await call(listNarrativesApi, getRequest(`/api/narrative?${query}`, { token }))).body
  const idsOf = (body: { data: { id: string }[] }) => body.data.map((narrative) => narrative.id)

  it("searches company, funder and text, case-insensitively, only among the caller's own", async () => {
    const { token, ids } = await seed()
    const found = await list(token, 'q=KUMQUAT')
    expect(idsOf(found)).toEqual([ids.past, ids.lane])
    expect(found.pagination.searched).toBeUndefined() // a search that read everything says nothing more
    expect(idsOf(await list(token, 'q=acme'))).toEqual([ids.acme])
    expect((await list(token, 'q=100%25')).pagination.total).toBe(0)
  })

  it('answers a search that would cost too much with what it found, and says how many narratives it read', async () => {
    const { token, ids } = await seed()
    // 1,500 older texts of 20,000 "a": LIKE '%a…ab%' costs each about 20,000 × 100 steps (26 s in all, unbounded).
    const columns = (await tableColumns('Narrative')).map((name) => `"${name}"`)
    const copied = columns.map((column) =>
      column === '"id"'
        ? `'heavy' || i`
        : column === '"generatedNarrative"'
          ? dialect === 'postgres'
            ? `repeat('a', 20000)`
            : `replace(hex(zeroblob(10000)), '0', 'a')`
          : column === '"claims"' || column === '"alignment"'
            ? 'NULL'
            : `n.${column}`,
    )
    await prisma.$executeRawUnsafe(`
      WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1500)
      INSERT INTO "Narrative" (${columns.join(', ')}) SELECT ${copied.join(', ')} FROM c, "Narrative" n WHERE n."id" = '${ids.plain}'`)
    const costly = await list(token, `q=${'a'.repeat(99)}b`)
    expect(costly.pagination.total).toBe(0)
    expect(costly.pagination.searched).toBeGreaterThan(0)
    expect(costly.pagination.searched).toBeLessThan(1505)
    // The newest are read first: what they hold is found even if the search stops early (as it may on a slow machine).
    expect(idsOf(await list(token, 'q=kumquat'))).toEqual([ids.past, ids.lane])
    expect((await list(token, `q=${'a'.repeat(101)}`)).error).toBe('q must be at most 100 characters')
  })

  it('filters by funder, tone and the days written, and pages the result', async () => {
    const { token, ids, acme } = await seed()
    expect(idsOf(await list(token, `funderId=${acme.id}`))).toEqual([ids.acme])
    expect(idsOf(await list(token, 'tone=passionate'))).toEqual([ids.acme])
    expect(idsOf(await list(token, 'from=2026-02-10&to=2026-04-10'))).toEqual([ids.soon, ids.lane, ids.acme])
    const paged = await list(token, 'from=2026-01-01&limit=2&page=2')
    expect(paged.pagination).toEqual({ page: 2, limit: 2, total: 5, pages: 3 })
    expect(idsOf(paged)).toEqual([ids.lane, ids.acme])
  })

  it('puts upcoming deadlines first, soonest first, then the rest newest first, searched or not', async () => {
    const { token, ids } = await seed()
    expect(idsOf(await list(token, 'sort=deadline'))).toEqual([ids.soon, ids.lane, ids.past, ids.acme, ids.plain])
    expect(idsOf(await list(token, 'sort=deadline&limit=1&page=3'))).toEqual([ids.past])
    expect(idsOf(await list(token, 'sort=deadline&q=kumquat'))).toEqual([ids.lane, ids.past])
    const record = (await list(token, 'sort=deadline&limit=1')).data[0]
    expect(record).toMatchObject({ funder: { name: 'Soon Fund' }, deadline: '2098-01-01' })
    expect(record.alignment).toBeUndefined()
    expect((await list(token, 'include=alignment&limit=1')).data[0]).toHaveProperty('coverage')
  })

  it('refuses parameters it cannot read', async () => {
    const { token } = await makeApiUser()
    for (const [query, error] of [
      ['tone=angry', 'tone must be one of professional, conversational, passionate, academic'],
      ['from=2026-13-01', 'from must be a date that exists'],
      ['to=yesterday', 'to must be a date (YYYY-MM-DD)'],
      ['sort=oldest', 'sort must be newest or deadline'],
    ]) {
      expect(await call(listNarrativesApi, getRequest(`/api/narrative?${query}`, { token }))).toMatchObject({
        status: 400,
        body: { error },
      })
    }
  })
})

describe('the account and its briefs', () => {
  it('the export carries the briefs with their calls; deleting the account deletes them', async () => {
    await makeApiUser({ email: 'admin@example.org' })
    const { user, token } = await makeApiUser()
    await createBrief(token)
    const exported = await call(exportApi, getRequest('/auth/profile/export', { token }))
    expect(exported.body.funders).toEqual([expect.objectContaining({ name: 'Acme Outfitters', callText: CORPORATE.trim() })])
    await deleteAccount(user, PASSWORD)
    expect(await prisma.funder.count()).toBe(0)
  })
})
