import { ADMIN } from './helpers'

// The first account becomes the administrator: create it before any test signs up.
export default async function globalSetup() {
  const response = await fetch('http://localhost:3300/auth/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, confirmPassword: ADMIN.password }),
  })
  if (response.status !== 201) throw new Error(`Could not create the admin: ${response.status} ${await response.text()}`)
}
