import { prisma } from '~/server/platform/db.server'
import { action as createApi } from '~/routes/api/narratives'
import { action as generateApi } from '~/routes/api/generate'
import { loader as profileApi } from '~/routes/auth/profile'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { action as loginAction } from '~/routes/public/login'
import { waitForGeneration } from '~/server/generation/job/jobs.server'
import { utcDay } from '~/server/usage/quota.server'
import { registerOverHttp, startAppServer, type AppServer } from '../setup/app-server'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest, routeArgs } from '../setup/requests'
import { readEvents } from '../setup/sse'
import { makeApiUser, PASSWORD } from '../setup/users'

// The organisation remembered (docs/decisions/019): the quota says when it resets, and the dashboard form
// is filled on the server with the organisation of the user's last generation.

const nextMidnightUtc = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))

async function generate(token: string, input: Record<string, string>) {
  const response = (await generateApi(routeArgs(jsonRequest('/api/narrative/generate', input, { token }), {}))) as Response
  const id = (await readEvents(response, (event) => event.event === 'done')).at(-1)!.data.id as string
  await waitForGeneration(id)
  return id
}

async function signInCookie(email: string) {
  return cookiesFrom((await call(loginAction, formRequest('/login', { email, password: PASSWORD }))).headers)
}

describe('the dashboard loader', () => {
  beforeEach(resetDatabase)

  it("counts the day against the user's own limit and says when it resets", async () => {
    const { user, token } = await makeApiUser()
    await prisma.user.update({ where: { id: user.id }, data: { dailyLimit: 3, quotaDay: utcDay(), quotaUsed: 3 } })
    const cookie = await signInCookie(user.email)

    const dashboard = await call(dashboardLoader, getRequest('/dashboard', { cookie }))
    expect(dashboard.body.remaining).toBe(0)
    expect(dashboard.body.quota).toMatchObject({ remaining: 0, limit: 3, resetsIn: expect.stringMatching(/^\d+ (h|min)$/) })
    expect(new Date(dashboard.body.quota.resetsAt).toISOString()).toBe(nextMidnightUtc().toISOString())
    const profile = await call(profileApi, getRequest('/auth/profile', { token }))
    expect(profile.body).toMatchObject({ count: 0, resetsAt: nextMidnightUtc().toISOString() })
  })

  it('names the generation the form was filled from, so a local copy made before a newer one is not restored over it', async () => {
    const { user, token } = await makeApiUser()
    const cookie = await signInCookie(user.email)
    expect((await call(dashboardLoader, getRequest('/dashboard', { cookie }))).body.rememberedFrom).toBeNull()

    const first = await generate(token, { ...FULL_INPUT, company: 'First Org' })
    expect((await call(dashboardLoader, getRequest('/dashboard', { cookie }))).body.rememberedFrom).toBe(first)
    const second = await generate(token, { ...FULL_INPUT, company: 'Second Org' })
    const dashboard = await call(dashboardLoader, getRequest('/dashboard', { cookie }))
    expect(dashboard.body).toMatchObject({ rememberedFrom: second, formValues: { company: 'Second Org' } })

    // A record sent through the API is not a generation: the form and its origin stay the last generation's.
    const manual = await call(
      createApi,
      jsonRequest('/api/narrative', { ...FULL_INPUT, company: 'Manual Org', tone: 'professional', generatedNarrative: 'Text.' }, { token }),
    )
    expect(manual.status).toBe(201)
    expect((await call(dashboardLoader, getRequest('/dashboard', { cookie }))).body).toMatchObject({
      rememberedFrom: second,
      formValues: { company: 'Second Org' },
    })
    // Editing a saved narrative (?from=) is not the remembered organisation.
    const editing = await call(dashboardLoader, getRequest(`/dashboard?from=${manual.body.data.id}`, { cookie }))
    expect(editing.body).toMatchObject({ rememberedFrom: null, formValues: { company: 'Manual Org' } })
  })
})

describe('the dashboard without JavaScript (the built app over HTTP)', () => {
  let app: AppServer
  beforeAll(async () => {
    app = await startAppServer() // no model configured: the offline drafter writes
  })
  afterAll(() => app?.stop())

  async function cookieLogin(email: string) {
    const response = await fetch(`${app.origin}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'a good password' }),
      redirect: 'manual',
    })
    expect(response.status).toBe(302)
    return response.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ')
  }
  // React separates adjacent text with <!-- -->: gone, the page reads as a person sees it.
  const page = async (cookie: string) =>
    (await (await fetch(`${app.origin}/dashboard`, { headers: { Cookie: cookie } })).text()).replaceAll('<!-- -->', '')
  const bearer = (token: string) => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${token}` })

  it('serves the form filled with the last generation, the quota line, and at zero a message at the top', async () => {
    const adminToken = await registerOverHttp(app.origin, 'remember-admin@example.org')
    const token = await registerOverHttp(app.origin, 'remember-user@example.org')
    const other = await registerOverHttp(app.origin, 'remember-other@example.org')
    const cookie = await cookieLogin('remember-user@example.org')
    expect(await page(cookie)).not.toContain('Harvest')

    for (const [who, company] of [
      [token, 'Harvest & Table <Food Bank>'],
      [other, 'Harvest Other Org'],
    ]) {
      const response = await fetch(`${app.origin}/api/narrative/generate`, {
        method: 'POST',
        headers: bearer(who),
        body: JSON.stringify({ ...FULL_INPUT, company }),
      })
      expect(response.status).toBe(200)
      expect((await readEvents(response, (event) => event.event === 'done')).at(-1)!.event).toBe('done')
    }

    const filled = await page(cookie)
    // Rendered as text: the organisation's own characters, escaped, in the input and the textarea.
    expect(filled).toMatch(/<input[^>]*name="company"[^>]*value="Harvest &amp; Table &lt;Food Bank&gt;"/)
    expect(filled).toMatch(/<textarea[^>]*name="missionStatement"[^>]*>To end hunger in Travis County/)
    expect(filled).not.toContain('Harvest Other Org')
    expect(filled).toContain('9 narratives left today')
    expect(filled).toMatch(/Your limit is 10 a day · answers and variants are free offline · resets in \d+ (h|min)/)
    expect(filled).not.toContain('You have used all')

    const { id } = (await (await fetch(`${app.origin}/auth/profile`, { headers: bearer(token) })).json()) as { id: string }
    const limited = await fetch(`${app.origin}/auth/users/${id}`, {
      method: 'PATCH',
      headers: bearer(adminToken),
      body: JSON.stringify({ dailyLimit: 1 }),
    })
    expect(limited.status).toBe(200)
    const empty = await page(cookie)
    expect(empty).toContain('0 narratives left today')
    expect(empty).toMatch(/Your limit is 1 a day · answers and variants are free offline · resets in \d+ (h|min)/)
    // Said near the heading, in a status region of its own (polite: it informs, it is no error).
    const notice = empty.match(
      /<h1>Create your Impact Narrative<\/h1>[\s\S]*?<div[^>]*role="status"[^>]*>\s*<p[^>]*>(You have used all[^<]*)<\/p>/,
    )
    expect(notice?.[1]).toMatch(/^You have used all 1 of today&#x27;s narratives\. They reset in \d+ (h|min), at midnight UTC\.$/)
  })
})
