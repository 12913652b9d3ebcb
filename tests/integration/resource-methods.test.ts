import { startAppServer, type AppServer } from '../setup/app-server'

// A wrong method to a resource route (a download, a stream, the evidence check) is 405 with the methods
// it takes: the BUILT app over HTTP, where React Router answered GET to an action-only route with 400.

let app: AppServer

beforeAll(async () => {
  app = await startAppServer()
})
afterAll(() => app?.stop())

it('answers GET to the evidence check, which takes POST alone, with 405 and Allow: POST', async () => {
  for (const method of ['GET', 'HEAD']) {
    const response = await fetch(`${app.origin}/resources/evidence-check`, { method })
    expect(response.status).toBe(405)
    expect(response.headers.get('Allow')).toBe('POST')
  }
  expect(await (await fetch(`${app.origin}/resources/evidence-check`)).json()).toEqual({ error: 'Method not allowed: use POST.' })
})

it('answers a POST to a route that only reads with 405 and Allow: GET, HEAD; pages and the API answer as before', async () => {
  const posted = await fetch(`${app.origin}/resources/healthcheck`, { method: 'POST' })
  expect(posted.status).toBe(405)
  expect(posted.headers.get('Allow')).toBe('GET, HEAD')
  expect((await fetch(`${app.origin}/resources/healthcheck`)).status).toBe(200)
  expect((await fetch(`${app.origin}/dashboard`, { redirect: 'manual' })).status).toBe(302)
  // The API's routes answer a wrong method themselves, in its error shape.
  const api = await fetch(`${app.origin}/api/narrative/x/docx`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  })
  expect(api.status).toBe(405)
})
