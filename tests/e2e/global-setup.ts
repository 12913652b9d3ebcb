import { ADMIN } from './helpers'

// The first account becomes the administrator: create it on each app before any test signs up.
export default async function globalSetup() {
  for (const origin of ['http://localhost:3300', 'http://localhost:3301']) {
    const response = await fetch(`${origin}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...ADMIN, confirmPassword: ADMIN.password }),
    })
    if (response.status !== 201) throw new Error(`Could not create the admin: ${response.status} ${await response.text()}`)
  }
}
