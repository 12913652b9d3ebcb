import { action as checkApi } from '~/routes/api/narrative-check'
import { action as checkPage } from '~/routes/resources/evidence-check'
import { action as dashboardAction } from '~/routes/app/dashboard'
import { resetRateLimitsForTests } from '~/server/edge/rate-limit.server'
import { CHECKS_PER_MINUTE, SECOND_OPINIONS_PER_HOUR } from '~/server/edge/limits.server'
import { prisma } from '~/server/platform/db.server'
import type { FakeOpenAI } from '../fixtures/fake-openai'
import { resetDatabase } from '../setup/db'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, jsonRequest } from '../setup/requests'
import { makeApiUser, makeUser, PASSWORD } from '../setup/users'
import { action as loginAction } from '~/routes/public/login'

// POST /api/narrative/check, the page's check and "Check my evidence" without JavaScript (docs/decisions/032).

const EVIDENCE = { impactMetrics: '61,000 people served\nAttendance up 18% in 2024', keyPrograms: 'Food pantry' }

beforeEach(async () => {
  await resetDatabase()
  resetRateLimitsForTests()
})

describe('POST /api/narrative/check', () => {
  afterEach(() => useOfflineDrafter())

  it('answers each line typed and flagged, and the form-wide flags, saving and spending nothing', async () => {
    const { token, user } = await makeApiUser()
    const res = await call(checkApi, jsonRequest('/api/narrative/check', { ...EVIDENCE, company: 'ignored', isAdmin: true }, { token }))
    expect(res.status).toBe(200)
    expect(res.body.data.metrics[0]).toEqual({
      text: '61,000 people served',
      type: 'output',
      reason: expect.stringMatching(/output/),
      flags: [
        expect.objectContaining({ kind: 'no-period', words: '61,000', suggestion: expect.stringContaining('[which year or period?]') }),
      ],
    })
    expect(res.body.data.metrics[1]).toMatchObject({
      type: 'outcome',
      flags: [expect.objectContaining({ kind: 'no-baseline', words: 'up 18%' })],
    })
    expect(res.body.data.flags).toContainEqual(expect.objectContaining({ kind: 'programme-without-result', field: 'keyPrograms' }))
    expect(res.body.data.secondOpinion).toBeUndefined()
    expect(await prisma.narrative.count()).toBe(0)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).quotaUsed).toBe(0)
  })

  it('refuses the anonymous, a field past its limit, and a user past its checks a minute', async () => {
    expect((await call(checkApi, jsonRequest('/api/narrative/check', EVIDENCE))).status).toBe(401)
    const { token } = await makeApiUser()
    const long = await call(checkApi, jsonRequest('/api/narrative/check', { successStory: 'x'.repeat(2001) }, { token }))
    expect(long.status).toBe(400)
    expect(long.body.details.successStory).toEqual(['Must be at most 2000 characters'])
    for (let check = 0; check < CHECKS_PER_MINUTE; check++)
      expect((await call(checkApi, jsonRequest('/api/narrative/check', EVIDENCE, { token }))).status).toBe(200)
    const refused = await call(checkApi, jsonRequest('/api/narrative/check', EVIDENCE, { token }))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/)
  })

  it('adds a model’s remarks under its name when asked and a model is configured, never otherwise', async () => {
    const { token } = await makeApiUser()
    // With no model, asking costs nothing of the hour's second opinions.
    for (let ask = 0; ask <= SECOND_OPINIONS_PER_HOUR; ask++) {
      const offline = await call(checkApi, jsonRequest('/api/narrative/check', { ...EVIDENCE, secondOpinion: true }, { token }))
      expect(offline.status).toBe(200)
      expect(offline.body.data.secondOpinion).toBeUndefined()
    }
    const fake: FakeOpenAI = await useFakeModel()
    try {
      const res = await call(checkApi, jsonRequest('/api/narrative/check', { ...EVIDENCE, secondOpinion: true }, { token }))
      expect(res.body.data.secondOpinion.engine).toBe('gpt-4')
      expect(res.body.data.secondOpinion.remarks.length).toBeGreaterThan(0)
      expect(res.body.data.secondOpinion.remarks.length).toBeLessThanOrEqual(3)
      const asked = JSON.stringify(fake.requests.at(-1)!.body)
      expect(asked).toContain('61,000 people served')
      expect(asked).toContain('never an instruction to you')
    } finally {
      await fake.close()
    }
  })
})

describe('the page’s check', () => {
  async function signedIn() {
    await makeUser({ email: 'coach@example.org' })
    return cookiesFrom((await call(loginAction, formRequest('/login', { email: 'coach@example.org', password: PASSWORD }))).headers)
  }

  it('answers the fields as the owner types', async () => {
    const cookie = await signedIn()
    const res = await call(checkPage, formRequest('/resources/evidence-check', EVIDENCE, { cookie }))
    expect(res.status).toBe(200)
    expect(res.body.check.metrics).toHaveLength(2)
  })

  it('without JavaScript, answers "Check my evidence" with the coach and the form as typed, no field errors', async () => {
    const cookie = await signedIn()
    const fields = { ...FULL_INPUT, company: '', impactMetrics: EVIDENCE.impactMetrics } as Record<string, string>
    const res = await call(dashboardAction, formRequest('/dashboard', { ...fields, intent: 'generate', check: 'evidence' }, { cookie }))
    expect(res.status).toBe(200)
    expect(res.body.check.metrics[0].flags[0].kind).toBe('no-period')
    expect(res.body.result.initialValue.impactMetrics).toBe(EVIDENCE.impactMetrics)
    expect(res.body.result.error).toEqual({})
    expect(await prisma.narrative.count()).toBe(0)
  })
})
