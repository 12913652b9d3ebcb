import { ADMIN } from './helpers'
import { fillScreenshotApp } from './screenshot-app'

export default async function globalSetup() {
  // First, while the screenshot app's clock is in its first minute (./screenshot-app.ts).
  process.env.SCREENSHOT_IDS = JSON.stringify(await fillScreenshotApp())
  // The first account becomes the administrator: create it on each app before any test signs up.
  for (const origin of ['http://localhost:3300', 'http://localhost:3301']) {
    const response = await fetch(`${origin}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...ADMIN, confirmPassword: ADMIN.password }),
    })
    if (response.status !== 201) throw new Error(`Could not create the admin: ${response.status} ${await response.text()}`)
  }
}
