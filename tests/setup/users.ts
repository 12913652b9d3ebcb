import { createSession } from '~/server/accounts/auth.server'
import { createUser } from '~/server/accounts/users.server'

let counter = 0

export const PASSWORD = 'correct horse battery'

export async function makeUser(overrides: { email?: string; firstName?: string; lastName?: string } = {}) {
  counter += 1
  return createUser({
    email: overrides.email ?? `user${counter}@example.org`,
    firstName: overrides.firstName ?? 'Test',
    lastName: overrides.lastName ?? `User${counter}`,
    password: PASSWORD,
  })
}

/** A user with an API bearer token. */
export async function makeApiUser(overrides: Parameters<typeof makeUser>[0] = {}) {
  const user = await makeUser(overrides)
  return { user, token: await createSession(user.id, 'api') }
}
