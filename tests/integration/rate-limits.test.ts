import { action as loginApi } from '~/routes/auth.login'
import { action as forgotApi } from '~/routes/auth.forgot-password'
import { action as loginPage } from '~/routes/_public.login'
import { runWithRequestContext } from '~/server/platform/request-context.server'
import { RATE_LIMITS } from '~/server/edge/rate-limit.server'
import { resetDatabase } from '../setup/db'
import { call, formRequest, jsonRequest } from '../setup/requests'
import { makeUser, PASSWORD } from '../setup/users'

beforeEach(resetDatabase)

const fromIp = <T>(clientIp: string, fn: () => Promise<T>) => runWithRequestContext({ requestId: 'test', clientIp }, fn)

describe('rate limits', () => {
  it('refuses sign-in attempts on one account past the limit with 429 and Retry-After, from any address', async () => {
    await makeUser({ email: 'target@example.org' })
    const attempts = RATE_LIMITS.login.account!.limit
    for (let i = 0; i < attempts; i++) {
      const res = await fromIp(`10.0.0.${i}`, () => call(loginApi, jsonRequest('/auth/login', { email: 'target@example.org', password: 'wrong guess' })))
      expect(res.status).toBe(401)
    }
    const refused = await fromIp('10.0.1.1', () => call(loginApi, jsonRequest('/auth/login', { email: 'target@example.org', password: PASSWORD })))
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(refused.body.error).toMatch(/Too many attempts/)
    // Another account from another address is unaffected.
    await makeUser({ email: 'bystander@example.org' })
    const other = await fromIp('10.0.2.1', () => call(loginApi, jsonRequest('/auth/login', { email: 'bystander@example.org', password: PASSWORD })))
    expect(other.status).toBe(200)
  })

  it('refuses one address past its limit across accounts, on the page too', async () => {
    const { limit } = RATE_LIMITS.login.ip
    for (let i = 0; i < limit; i++) {
      await fromIp('192.0.2.7', () => call(loginPage, formRequest('/login', { email: `guess${i}@example.org`, password: 'whatever1' })))
    }
    const refused = await fromIp('192.0.2.7', () => call(loginPage, formRequest('/login', { email: 'new@example.org', password: 'whatever1' })))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/)
    const elsewhere = await fromIp('192.0.2.8', () => call(loginPage, formRequest('/login', { email: 'new@example.org', password: 'whatever1' })))
    expect(elsewhere.status).toBe(401)
  })

  it('limits reset emails per account', async () => {
    await makeUser({ email: 'mailbox@example.org' })
    const { limit } = RATE_LIMITS.forgot.account!
    for (let i = 0; i < limit; i++) {
      expect((await fromIp(`10.1.0.${i}`, () => call(forgotApi, jsonRequest('/auth/forgot-password', { email: 'mailbox@example.org' })))).status).toBe(200)
    }
    expect((await fromIp('10.1.1.1', () => call(forgotApi, jsonRequest('/auth/forgot-password', { email: 'mailbox@example.org' })))).status).toBe(429)
  })
})
