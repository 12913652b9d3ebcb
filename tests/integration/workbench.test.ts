import { prisma } from '~/server/platform/db.server'
import { action as createApi, loader as createApiLoader } from '~/routes/api/narratives'
import { claimInputsOf, findClaims } from '~/server/narratives/claims.server'
import { loader as getApi, action as changeApi } from '~/routes/api/narrative'
import { action as generateApi } from '~/routes/api/generate'
import { loader as versionsApi } from '~/routes/api/narrative-versions'
import { action as restoreApi } from '~/routes/api/narrative-version-restore'
import { loader as listVariantsApi, action as variantsApi } from '~/routes/api/narrative-variants'
import { loader as profileApi } from '~/routes/auth/profile'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { loader as pageLoader, action as pageAction } from '~/routes/app/narrative'
import { action as loginAction } from '~/routes/public/login'
import { waitForGeneration } from '~/server/generation/job/jobs.server'
import { claimQuota, deleteUserKeepingQuota, getQuota, utcDay, whyRefused } from '~/server/usage/quota.server'
import { VARIANTS_EXHAUSTED } from '~/server/usage/contract.server'
import { resetEnvForTests } from '~/server/platform/env.server'
import { measure } from '~/shared/variant-limits'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import { VERSIONS_KEPT } from '~/server/narratives/versions.server'
import { EDIT_SESSION_MS } from '~/shared/narrative-text'
import { EDITS_PER_MINUTE } from '~/server/edge/limits.server'
import type { FakeOpenAI } from '../fixtures/fake-openai'
import { resetDatabase } from '../setup/db'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest, routeArgs } from '../setup/requests'
import { readEvents } from '../setup/sse'
import { makeApiUser, PASSWORD } from '../setup/users'

beforeEach(resetDatabase)
afterEach(useOfflineDrafter)

const { selectedTone: _tone, ...FIELDS } = FULL_INPUT
const FIRST_TEXT = 'Harvest Table Food Bank served 38,000 individuals in 2023.'

async function createNarrative(token: string, text = FIRST_TEXT) {
  const res = await call(createApi, jsonRequest('/api/narrative', { ...FIELDS, tone: 'professional', generatedNarrative: text }, { token }))
  expect(res.status).toBe(201)
  return res.body.data.id as string
}

const edit = (id: string, token: string, text: string) =>
  call(changeApi, jsonRequest(`/api/narrative/${id}`, { generatedNarrative: text }, { method: 'PUT', token }), { id })
const versionsOf = (id: string, token: string) => call(versionsApi, getRequest(`/api/narrative/${id}/versions`, { token }), { id })
const restore = (id: string, versionId: string, token: string) =>
  call(restoreApi, jsonRequest(`/api/narrative/${id}/versions/${versionId}/restore`, {}, { token }), { id, versionId })
const startVariant = (id: string, token: string, body: unknown) =>
  variantsApi(routeArgs(jsonRequest(`/api/narrative/${id}/variants`, body, { token }), { id })) as Promise<Response>
const ended = (event: { event: string }) => event.event === 'done' || event.event === 'error'
/** Runs `body` with these settings, then puts the defaults back. */
async function withSettings(values: Record<string, string>, body: () => Promise<void>) {
  Object.assign(process.env, values)
  resetEnvForTests()
  try {
    await body()
  } finally {
    for (const key of Object.keys(values)) delete process.env[key]
    resetEnvForTests()
  }
}
/** What the person may still write today: narratives, and answers and variants. */
const allowances = async (userId: string) => {
  const { remaining, variantsLeft } = await getQuota(userId)
  return { remaining, variantsLeft }
}
/** A variant's events, from its start to its end. */
const variantEvents = async (id: string, token: string, body: unknown) => readEvents(await startVariant(id, token, body), ended)

describe('versions', () => {
  afterEach(() => vi.useRealTimers())
  /** Moves the clock on, as a writer coming back to the text later would. */
  const later = (minutes: number) => vi.setSystemTime(Date.now() + minutes * 60_000)

  it('records the first text, each writing session and each restore, newest first, and restores an earlier text', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { token } = await makeApiUser()
    const id = await createNarrative(token)
    await edit(id, token, 'Second wording.')
    // Saved again within minutes of the last edit: the same writing session, one version.
    later(EDIT_SESSION_MS / 60_000 - 1)
    await edit(id, token, 'Third wording.')
    later(EDIT_SESSION_MS / 60_000 + 1)
    await edit(id, token, 'Fourth wording.')
    const listed = await versionsOf(id, token)
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((version: { text: string; source: string }) => [version.source, version.text])).toEqual([
      ['edited', 'Fourth wording.'],
      ['edited', 'Third wording.'],
      ['edited', FIRST_TEXT],
    ])
    expect(listed.body.data[0]).toEqual({
      id: expect.any(String),
      text: 'Fourth wording.',
      source: 'edited',
      createdAt: expect.any(String),
    })
    expect(listed.body.pagination).toEqual({ page: 1, limit: 10, total: 3, pages: 1 })

    const first = listed.body.data[2]
    later(1)
    const restored = await restore(id, first.id, token)
    expect(restored.status).toBe(200)
    expect(restored.body.data).toMatchObject({ id, generatedNarrative: FIRST_TEXT, wordCount: 9 })
    const after = await versionsOf(id, token)
    expect(after.body.data.map((version: { source: string }) => version.source)).toEqual(['restored', 'edited', 'edited', 'edited'])
    expect(after.body.data[0].text).toBe(FIRST_TEXT)
  })

  it(`keeps the newest ${VERSIONS_KEPT} versions and the first text, and lists them a page at a time`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { token } = await makeApiUser()
    const id = await createNarrative(token)
    for (let i = 1; i <= VERSIONS_KEPT + 10; i++) {
      later(EDIT_SESSION_MS / 60_000 + 1)
      expect((await edit(id, token, `Wording number ${i}.`)).status).toBe(200)
    }
    const page = (query: string) => call(versionsApi, getRequest(`/api/narrative/${id}/versions?${query}`, { token }), { id })
    const all = [...(await page('limit=50')).body.data, ...(await page('limit=50&page=2')).body.data]
    expect(all).toHaveLength(VERSIONS_KEPT)
    expect(all[0].text).toBe(`Wording number ${VERSIONS_KEPT + 10}.`)
    expect(all[VERSIONS_KEPT - 2].text).toBe('Wording number 12.')
    expect(all[VERSIONS_KEPT - 1].text).toBe(FIRST_TEXT)
    expect((await page('limit=20&page=2')).body).toMatchObject({ pagination: { page: 2, limit: 20, total: VERSIONS_KEPT, pages: 3 } })
    expect((await page(`limit=${VERSIONS_KEPT + 1}`)).status).toBe(400)
  })

  it(`refuses more than ${EDITS_PER_MINUTE} saves and restores a minute from one user with 429, and keeps the text`, async () => {
    const { token } = await makeApiUser()
    const id = await createNarrative(token)
    for (let i = 0; i < EDITS_PER_MINUTE; i++) expect((await edit(id, token, `Wording ${i}.`)).status).toBe(200)
    const refused = await edit(id, token, 'One too many.')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    const [version] = (await versionsOf(id, token)).body.data
    expect((await restore(id, version.id, token)).status).toBe(429)
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, { token }), { id })).body.data.generatedNarrative).toBe(
      `Wording ${EDITS_PER_MINUTE - 1}.`,
    )
  })

  it('saves no version for an edit that changes nothing', async () => {
    const { token } = await makeApiUser()
    const id = await createNarrative(token)
    expect((await edit(id, token, FIRST_TEXT)).status).toBe(200)
    expect((await versionsOf(id, token)).body.data).toHaveLength(1)
  })

  it("answers 404 for another user's narrative, an unknown version, or a version of another narrative", async () => {
    const owner = await makeApiUser()
    const other = await makeApiUser()
    const id = await createNarrative(owner.token)
    const otherId = await createNarrative(other.token)
    const [version] = (await versionsOf(id, owner.token)).body.data
    const [otherVersion] = (await versionsOf(otherId, other.token)).body.data
    expect((await versionsOf(id, other.token)).status).toBe(404)
    expect((await restore(id, version.id, other.token)).status).toBe(404)
    expect((await restore(id, 'no-such-version', owner.token)).status).toBe(404)
    expect((await restore(id, otherVersion.id, owner.token)).status).toBe(404)
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, { token: owner.token }), { id })).body.data.generatedNarrative).toBe(
      FIRST_TEXT,
    )
  })

  it('deletes the versions with their narrative', async () => {
    const { token } = await makeApiUser()
    const id = await createNarrative(token)
    await edit(id, token, 'Second wording.')
    await call(changeApi, jsonRequest(`/api/narrative/${id}`, {}, { method: 'DELETE', token }), { id })
    expect(await prisma.narrativeVersion.count()).toBe(0)
  })

  it('records a generation as a generated version', async () => {
    const { token } = await makeApiUser()
    const response = (await generateApi(routeArgs(jsonRequest('/api/narrative/generate', FULL_INPUT, { token }), {}))) as Response
    const done = (await readEvents(response, (event) => event.event === 'done')).at(-1)!
    await waitForGeneration(done.data.id)
    const versions = (await versionsOf(done.data.id, token)).body.data
    expect(versions).toEqual([expect.objectContaining({ source: 'generated', text: done.data.text })])
  })
})

describe('claims in the record as read', () => {
  it('marks a figure and a name the model invented, and traces the rest to their fields', async () => {
    const invented =
      'Harvest Table Food Bank served 38,000 individuals in Travis County in 2023. With the Rotary Club it raised $5 million for 14 neighborhood pantries.'
    const fake = await useFakeModel({ text: invented })
    try {
      const { token } = await makeApiUser()
      const response = (await generateApi(routeArgs(jsonRequest('/api/narrative/generate', FULL_INPUT, { token }), {}))) as Response
      const { id } = (await readEvents(response, (event) => event.event === 'done')).at(-1)!.data
      await waitForGeneration(id)
      const record = (await call(getApi, getRequest(`/api/narrative/${id}`, { token }), { id })).body.data
      expect(record.wordCount).toBe(24)
      expect(
        record.claims.filter((claim: { supported: boolean }) => !claim.supported).map((claim: { text: string }) => claim.text),
      ).toEqual(['Rotary Club', '$5 million'])
      expect(record.claims).toContainEqual(expect.objectContaining({ text: '38,000', supported: true, fields: ['impactMetrics'] }))
      expect(record.claims).toContainEqual(
        expect.objectContaining({ text: 'Travis County', supported: true, fields: ['missionStatement', 'geographicFocus'] }),
      )
    } finally {
      await fake.close()
    }
  })
})

describe('variants with the offline drafter', () => {
  it('writes answers and variants when the day’s narratives, and its answers and variants, are used up: they cost nothing', async () => {
    await withSettings({ DAILY_VARIANT_LIMIT: '0' }, async () => {
      const { user, token } = await makeApiUser()
      const id = await createNarrative(token)
      await prisma.user.update({ where: { id: user.id }, data: { quotaDay: utcDay(), quotaUsed: 10 } })
      const events = await variantEvents(id, token, { format: 'pitch' })
      expect(events.at(-1)!.event).toBe('done')
      await waitForGeneration(events[0].data.id)
      expect(await prisma.narrativeVariant.findFirstOrThrow({ select: { status: true, quotaDay: true } })).toEqual({
        status: 'complete',
        quotaDay: null,
      })
      expect(await allowances(user.id)).toEqual({ remaining: 0, variantsLeft: 0 })
    })
  })

  it('streams a variant within the limit, lists it with its counts and claims, and costs nothing', async () => {
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token)
    const before = await allowances(user.id)
    const response = await startVariant(id, token, { format: 'social' })
    expect(response.headers.get('Content-Type')).toContain('text/event-stream')
    const events = await readEvents(response, ended)
    expect(events[0].event).toBe('start')
    const done = events.at(-1)!
    expect(done.event).toBe('done')
    expect(measure(done.data.text, { unit: 'characters' })).toBeLessThanOrEqual(280)
    expect(done.data.text).toContain('Harvest Table Food Bank')
    await waitForGeneration(done.data.id)
    expect(await allowances(user.id)).toEqual(before)

    const listed = await call(listVariantsApi, getRequest(`/api/narrative/${id}/variants`, { token }), { id })
    expect(listed.body.data).toEqual([
      {
        id: done.data.id,
        format: 'social',
        limit: { unit: 'characters', max: 280, spaces: true },
        text: done.data.text,
        wordCount: measure(done.data.text, { unit: 'words' }),
        characterCount: measure(done.data.text, { unit: 'characters' }),
        claims: expect.any(Array),
        current: true,
        createdAt: expect.any(String),
      },
    ])
    expect(listed.body.data[0].claims.every((claim: { supported: boolean }) => claim.supported)).toBe(true)
  })

  it('starts from the narrative as last edited, not from the first text or the raw inputs', async () => {
    const { token } = await makeApiUser()
    const id = await createNarrative(token)
    await edit(id, token, 'Harvest Table Food Bank opened its Riverside pantry in 2024. It now serves 41,000 people a year.')
    const events = await variantEvents(id, token, { format: 'pitch' })
    const text = events.at(-1)!.data.text as string
    expect(text).toContain('Riverside pantry')
    expect(text).not.toContain('38,000')
    await waitForGeneration(events.at(-1)!.data.id)
  })

  it('marks a variant out of date once the narrative is edited, and current again when that text is restored', async () => {
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token)
    const first = (await variantEvents(id, token, { format: 'pitch' })).at(-1)!.data.id as string
    await waitForGeneration(first)
    const listed = async () =>
      Object.fromEntries(
        (await call(listVariantsApi, getRequest(`/api/narrative/${id}/variants`, { token }), { id })).body.data.map(
          (variant: { id: string; current: boolean }) => [variant.id, variant.current],
        ),
      )
    expect(await listed()).toEqual({ [first]: true })

    await edit(id, token, 'Harvest Table Food Bank opened its Riverside pantry in 2024.')
    const second = (await variantEvents(id, token, { format: 'social' })).at(-1)!.data.id as string
    await waitForGeneration(second)
    expect(await listed()).toEqual({ [first]: false, [second]: true })
    // The page says the same, where its owner reads the variants.
    const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: user.email, password: PASSWORD }))).headers)
    const page = await call(pageLoader, getRequest(`/admin/narratives/${id}`, { cookie }), { id })
    expect(
      Object.fromEntries(page.body.variants.map((variant: { id: string; current: boolean }) => [variant.id, variant.current])),
    ).toEqual({
      [first]: false,
      [second]: true,
    })

    const firstVersion = (await versionsOf(id, token)).body.data.at(-1).id as string
    expect((await restore(id, firstVersion, token)).status).toBe(200)
    expect(await listed()).toEqual({ [first]: true, [second]: false })
  })

  it('refuses an impossible limit with 400 and a foreign narrative with 404', async () => {
    const owner = await makeApiUser()
    const other = await makeApiUser()
    const id = await createNarrative(owner.token)
    const impossible = await startVariant(id, owner.token, { format: 'custom', maxWords: 3 })
    expect(impossible.status).toBe(400)
    expect(await impossible.json()).toMatchObject({
      error: 'The word limit must be at least 10',
      details: { maxWords: ['The word limit must be at least 10'] },
    })
    expect((await startVariant(id, other.token, { format: 'pitch' })).status).toBe(404)
    expect(await prisma.narrativeVariant.count()).toBe(0)
  })
})

describe('variants with a model', () => {
  let fake: FakeOpenAI
  let retryReply = ''
  const LONG = 'Harvest Table Food Bank served 38,000 individuals in 2023. '.repeat(8).trim()
  beforeEach(async () => {
    // CI shuffles the tests: each starts from a second answer that fits, whatever the one before set.
    retryReply = 'Harvest Table Food Bank served 38,000 individuals in 2023.'
    fake = await useFakeModel({ text: (prompt) => (prompt.includes('over the limit of') ? retryReply : LONG) })
  })
  afterEach(() => fake.close())

  async function writeVariant(body: unknown) {
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token)
    const events = await variantEvents(id, token, body)
    await waitForGeneration(events[0].data.id)
    return { user, events }
  }

  it('asks once more, with the overshoot stated, when the first answer runs over', async () => {
    retryReply = 'Harvest Table Food Bank served 38,000 individuals in 2023.'
    const { events } = await writeVariant({ format: 'custom', maxWords: 40 })
    const restart = events.find((event) => event.event === 'restart')!
    expect(restart.data.reason).toBe('The first draft was 72 words, 32 over the limit of 40. Asking for a shorter one.')
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { text: retryReply } })
    const retry = fake.requests.at(-1)!.body.messages
    expect(retry.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant', 'user'])
    expect(retry[2].content).toContain('That is 72 words, 32 over the limit of 40.')
  })

  it('gives the model the narrative as last edited', async () => {
    const { token } = await makeApiUser()
    const id = await createNarrative(token)
    await edit(id, token, 'Harvest Table Food Bank opened its Riverside pantry in 2024.')
    const events = await variantEvents(id, token, { format: 'pitch' })
    await waitForGeneration(events[0].data.id)
    const prompt = fake.requests[0].body.messages[0].content as string
    expect(prompt).toContain('Harvest Table Food Bank opened its Riverside pantry in 2024.')
    expect(prompt).not.toContain(FIRST_TEXT)
  })

  it('cuts at the last whole sentence when the second answer runs over too', async () => {
    retryReply = LONG
    const { events } = await writeVariant({ format: 'custom', maxWords: 40 })
    const text = events.at(-1)!.data.text
    expect(measure(text, { unit: 'words' })).toBe(36)
    expect(text).toBe('Harvest Table Food Bank served 38,000 individuals in 2023. '.repeat(4).trim())
  })

  it('fails, and gives the day back, when no whole sentence fits', async () => {
    retryReply = 'One sentence that goes on and on without any end in sight and with no full stop at all to cut it at'
    const { user, events } = await writeVariant({ format: 'custom', maxWords: 10 })
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { error: 'No whole sentence of the variant fits within 10 words. Try a higher limit.' },
    })
    expect(await allowances(user.id)).toEqual({ remaining: 10, variantsLeft: 50 })
    expect(await prisma.narrativeVariant.findFirst({ select: { status: true } })).toEqual({ status: 'failed' })
  })

  it('draws on the day’s answers and variants, never on its narratives, and refuses the one past them with 429', async () => {
    await withSettings({ DAILY_VARIANT_LIMIT: '2' }, async () => {
      const { user, token } = await makeApiUser()
      const id = await createNarrative(token)
      // The day's narratives used up: an answer or a variant is still written.
      await prisma.user.update({ where: { id: user.id }, data: { quotaDay: utcDay(), quotaUsed: 10 } })
      const profile = async () => (await call(profileApi, getRequest('/auth/profile', { token }))).body
      expect(await profile()).toMatchObject({ count: 0, variantsLeft: 2 })
      // A limit the model's first answer fits: one request to the model a variant.
      for (const left of [1, 0]) {
        const events = await variantEvents(id, token, { format: 'custom', maxWords: 100 })
        expect(events.at(-1)).toMatchObject({ event: 'done' })
        await waitForGeneration(events[0].data.id)
        expect(await profile()).toMatchObject({ count: 0, variantsLeft: left })
      }
      const refused = await startVariant(id, token, { format: 'custom', maxWords: 100 })
      expect(refused.status).toBe(429)
      expect(await refused.json()).toEqual({ error: VARIANTS_EXHAUSTED })
      expect(await prisma.narrativeVariant.count()).toBe(2)
    })
  })

  it('counts a model’s variants in the instance’s MAX_DAILY_GENERATIONS, a deleted account’s too: it bounds what the model costs', async () => {
    await withSettings({ MAX_DAILY_GENERATIONS: '1' }, async () => {
      const { user, events } = await writeVariant({ format: 'custom', maxWords: 100 })
      expect(events.at(-1)).toMatchObject({ event: 'done' })
      const other = await makeApiUser()
      expect(await prisma.$transaction((tx) => claimQuota(tx, other.user.id))).toBeNull()
      expect(await whyRefused(other.user.id)).toBe('instance')
      // Deleting the account that wrote it keeps its day's variants in the count.
      await deleteUserKeepingQuota(user.id)
      expect(await prisma.$transaction((tx) => claimQuota(tx, other.user.id))).toBeNull()
    })
  })
})

describe('the narrative page', () => {
  async function signIn(email: string) {
    return cookiesFrom((await call(loginAction, formRequest('/login', { email, password: PASSWORD }))).headers)
  }

  it('says how the text was made, from its first text and the edits since, for a funder’s AI-use declaration', async () => {
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token, 'Harvest Table Food Bank served 38,000 individuals in 2023. We run three pantries.')
    await edit(id, token, 'Harvest Table Food Bank served 38,000 individuals in 2023. We run four pantries.')
    const cookie = await signIn(user.email)
    const page = await call(pageLoader, getRequest(`/admin/narratives/${id}`, { cookie }), { id })
    expect(page.body.disclosure).toBe(
      'This text was written by people, with no language model, and kept in Impact Narrative Studio. ' +
        'People have changed 8% of its words since it was saved. ' +
        'Each of its 3 statements of fact (figures, names, dates) was checked against the organisation’s inputs and found there.',
    )
    // The token API says the same, beside the record.
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, { token }), { id })).body.data.disclosure).toBe(page.body.disclosure)
  })

  it('writes a variant without JavaScript: the request waits, then shows it', async () => {
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token)
    const cookie = await signIn(user.email)
    const res = await call(pageAction, formRequest(`/admin/narratives/${id}`, { intent: 'variant', format: 'pitch' }, { cookie }), { id })
    expect(res.status).toBe(302)
    const variant = await prisma.narrativeVariant.findFirstOrThrow()
    expect(res.headers.get('Location')).toBe(`/admin/narratives/${id}?variant=${variant.id}#variants`)
    expect(variant).toMatchObject({ status: 'complete', format: 'pitch', limitUnit: 'words', limitMax: 50 })
    const page = await call(pageLoader, getRequest(`/admin/narratives/${id}?variant=${variant.id}`, { cookie }), { id })
    expect(page.body.variants).toEqual([expect.objectContaining({ id: variant.id, text: variant.text })])
  })

  it('writes the preset chosen after a custom limit was typed, and speaks of a bad limit without field names', async () => {
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token)
    const cookie = await signIn(user.email)
    const preset = await call(
      pageAction,
      formRequest(`/admin/narratives/${id}`, { intent: 'variant', format: 'social', maxWords: '3', maxCharacters: '' }, { cookie }),
      { id },
    )
    expect(preset.status).toBe(302)
    expect(await prisma.narrativeVariant.findFirstOrThrow()).toMatchObject({ format: 'social', limitUnit: 'characters', limitMax: 280 })
    const refused = await call(
      pageAction,
      formRequest(`/admin/narratives/${id}`, { intent: 'variant', format: 'custom', maxWords: '3', maxCharacters: '' }, { cookie }),
      { id },
    )
    const said = JSON.stringify(refused.body)
    expect(said).toContain('The word limit must be at least 10')
    expect(said).not.toMatch(/maxWords must|maxCharacters must|needs maxWords/)
  })

  it('lists what the text leaves out of its inputs, and nothing once the text carries it', async () => {
    const { user, token } = await makeApiUser()
    const res = await call(
      createApi,
      jsonRequest(
        '/api/narrative',
        { ...FIELDS, tone: 'professional', generatedNarrative: FIRST_TEXT, successStory: 'Dana found work at Riverside Bakery.' },
        { token },
      ),
    )
    const id = res.body.data.id as string
    const cookie = await signIn(user.email)
    const page = async () => (await call(pageLoader, getRequest(`/admin/narratives/${id}`, { cookie }), { id })).body.narrative.leftOut
    expect(await page()).toContainEqual({ kind: 'story', text: 'Dana found work at Riverside Bakery.' })
    await edit(id, token, `${FIRST_TEXT} Dana found work at Riverside Bakery.`)
    expect(await page()).not.toContainEqual(expect.objectContaining({ kind: 'story' }))
  })

  it('shows a version with its word difference from the current text, and restores it', async () => {
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token, 'We fed many families.')
    await edit(id, token, 'We fed 38,000 families.')
    const cookie = await signIn(user.email)
    const [, first] = (await versionsOf(id, token)).body.data
    const page = await call(pageLoader, getRequest(`/admin/narratives/${id}?version=${first.id}`, { cookie }), { id })
    expect(page.body.selectedVersion.diff).toEqual([
      { text: 'We fed ', change: 'same' },
      { text: 'many', change: 'removed' },
      { text: '38,000', change: 'added' },
      { text: ' families.', change: 'same' },
    ])
    const res = await call(pageAction, formRequest(`/admin/narratives/${id}`, { intent: 'restore', versionId: first.id }, { cookie }), {
      id,
    })
    expect(res.status).toBe(302)
    expect((await prisma.narrative.findUniqueOrThrow({ where: { id } })).generatedNarrative).toBe('We fed many families.')
  })

  it('says two texts are too different to compare word by word, and gives them whole, rather than work for seconds', async () => {
    const words = (seed: number) => Array.from({ length: 3300 }, (_, i) => `w${((i + 1) * seed * 7919) % 100003}`).join(' ')
    const { user, token } = await makeApiUser()
    const id = await createNarrative(token, words(1).slice(0, NARRATIVE_TEXT_MAX))
    await edit(id, token, words(2).slice(0, NARRATIVE_TEXT_MAX))
    const cookie = await signIn(user.email)
    const [current, first] = (await versionsOf(id, token)).body.data
    const page = await call(pageLoader, getRequest(`/admin/narratives/${id}?version=${first.id}`, { cookie }), { id })
    expect(page.body.selectedVersion).toMatchObject({ id: first.id, text: first.text, diff: null, current: false })
    expect(page.body.narrative.generatedNarrative).toBe(current.text)
  })
})

describe('claims kept beside the text', () => {
  const listApi = (query: string, token: string) => call(createApiLoader, getRequest(`/api/narrative?${query}`, { token }))
  const kept = async (id: string) => JSON.parse((await prisma.narrative.findUniqueOrThrow({ where: { id } })).claims ?? 'null')

  it('are found when the text changes (created, edited, restored), and read as kept', async () => {
    const { token } = await makeApiUser()
    const id = await createNarrative(token, 'We served 38,000 people in 2019.')
    expect((await kept(id)).map((claim: { text: string; supported: boolean }) => [claim.text, claim.supported])).toEqual([
      ['38,000', true],
      ['2019', false],
    ])
    await edit(id, token, 'We served 41,000 people.')
    expect((await kept(id)).map((claim: { text: string }) => claim.text)).toEqual(['41,000'])
    const [, first] = (await versionsOf(id, token)).body.data
    await restore(id, first.id, token)
    expect((await kept(id)).map((claim: { text: string }) => claim.text)).toEqual(['38,000', '2019'])
    // A read takes the kept claims as they are: nothing is traced again.
    const marker = [{ text: 'kept', start: 0, end: 4, supported: true, fields: [] }]
    await prisma.narrative.update({ where: { id }, data: { claims: JSON.stringify(marker) } })
    expect((await call(getApi, getRequest(`/api/narrative/${id}`, { token }), { id })).body.data.claims).toEqual(marker)
  })

  it('are found at the end of a generation, for the narrative and for a variant', async () => {
    const { user, token } = await makeApiUser()
    const response = await generateApi(routeArgs(jsonRequest('/api/narrative/generate', FULL_INPUT, { token })))
    const { id } = (await readEvents(response as Response))[0].data
    await waitForGeneration(id)
    const narrative = await prisma.narrative.findUniqueOrThrow({ where: { id } })
    expect(JSON.parse(narrative.claims!)).toEqual(findClaims(narrative.generatedNarrative, claimInputsOf(narrative)))
    await readEvents(await startVariant(id, token, { format: 'pitch' }))
    const variant = await prisma.narrativeVariant.findFirstOrThrow({ where: { userId: user.id } })
    expect(JSON.parse(variant.claims!)).toEqual(findClaims(variant.text, claimInputsOf(narrative)))
  })

  it('come with a list only when asked, and then twenty at most a page', async () => {
    const { token } = await makeApiUser()
    await createNarrative(token)
    expect((await listApi('', token)).body.data[0]).not.toHaveProperty('claims')
    expect((await listApi('include=claims', token)).body.data[0].claims).toEqual(expect.any(Array))
    expect((await listApi('include=claims&limit=21', token)).status).toBe(400)
    expect((await listApi('limit=100', token)).status).toBe(200)
  })
})

describe('the quota and the organisation, remembered', () => {
  it('says when the quota resets: the next midnight UTC', async () => {
    const { token } = await makeApiUser()
    const res = await call(profileApi, getRequest('/auth/profile', { token }))
    const now = new Date()
    expect(res.body.resetsAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString())
  })

  it("fills the dashboard with the user's last generation's inputs, never another's, and ?from= wins", async () => {
    const owner = await makeApiUser()
    const other = await makeApiUser()
    const cookie = cookiesFrom((await call(loginAction, formRequest('/login', { email: owner.user.email, password: PASSWORD }))).headers)
    expect((await call(dashboardLoader, getRequest('/dashboard', { cookie }))).body.formValues).toBeNull()

    for (const [token, company] of [
      [owner.token, 'Owner Org'],
      [other.token, 'Other Org'],
    ]) {
      const response = (await generateApi(
        routeArgs(jsonRequest('/api/narrative/generate', { ...FULL_INPUT, company }, { token }), {}),
      )) as Response
      await waitForGeneration((await readEvents(response, (event) => event.event === 'done')).at(-1)!.data.id)
    }
    // Written elsewhere and sent through the API: not an organisation the user described here.
    const manual = await createNarrative(owner.token)
    await prisma.narrative.update({ where: { id: manual }, data: { company: 'Manual Org' } })

    const dashboard = await call(dashboardLoader, getRequest('/dashboard', { cookie }))
    expect(dashboard.body.formValues).toMatchObject({ company: 'Owner Org', missionStatement: FULL_INPUT.missionStatement })
    const fromManual = await call(dashboardLoader, getRequest(`/dashboard?from=${manual}`, { cookie }))
    expect(fromManual.body.formValues.company).toBe('Manual Org')
    expect(dashboard.body.quota).toMatchObject({ remaining: 9, limit: 10, resetsIn: expect.stringMatching(/^\d+ (h|min)$/) })
  })
})
