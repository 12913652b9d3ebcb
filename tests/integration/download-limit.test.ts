import { loader as apiDownload } from '~/routes/api/narrative-download'
import { action as createApi } from '~/routes/api/narratives'
import { loader as pageDownload } from '~/routes/resources/narrative-download'
import { action as loginAction } from '~/routes/public/login'
import { resetRateLimitsForTests } from '~/server/edge/rate-limit.server'
import { getEnv } from '~/server/platform/env.server'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, getRequest, jsonRequest } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'

// Each Word or PDF file is built anew: one person's downloads, pages and API together, are limited a minute.
const DOWNLOADS_PER_MINUTE = getEnv().MAX_DOWNLOADS_PER_MINUTE

beforeEach(async () => {
  await resetDatabase()
  resetRateLimitsForTests()
})

async function personWithNarrative() {
  const { user, token } = await makeApiUser()
  const { selectedTone, ...fields } = FULL_INPUT
  const created = await call(
    createApi,
    jsonRequest('/api/narrative', { ...fields, tone: selectedTone, generatedNarrative: 'First paragraph.' }, { token }),
  )
  const signedIn = await call(loginAction, formRequest('/login', { email: user.email, password: PASSWORD }))
  return { token, cookie: cookiesFrom(signedIn.headers), id: created.body.data.id as string }
}

it(`refuses a person's download past ${DOWNLOADS_PER_MINUTE} a minute, page and API alike, and leaves another person's alone`, async () => {
  const person = await personWithNarrative()
  const other = await personWithNarrative()
  const fromPage = () =>
    call(pageDownload, getRequest(`/resources/narratives/${person.id}/docx`, { cookie: person.cookie }), { id: person.id })
  const fromApi = () => call(apiDownload, getRequest(`/api/narrative/${person.id}/docx`, { token: person.token }), { id: person.id })
  for (let i = 0; i < DOWNLOADS_PER_MINUTE; i++) expect((await (i % 2 ? fromApi() : fromPage())).status).toBe(200)

  const page = await fromPage()
  expect(page.status).toBe(429)
  expect(Number(page.headers.get('Retry-After'))).toBeGreaterThan(0)
  expect(page.body).toMatch(/downloaded 30 files in the last minute\. Please wait \d+ seconds/)
  const api = await fromApi()
  expect(api.status).toBe(429)
  expect(api.headers.get('Retry-After')).toBeTruthy()
  expect(api.body.error).toMatch(/Please wait \d+ seconds/)

  const theirs = await call(apiDownload, getRequest(`/api/narrative/${other.id}/docx`, { token: other.token }), { id: other.id })
  expect(theirs.status).toBe(200)
})
