import { getApiUser, getOptionalUser, type AuthUser, type SignedInUser } from '~/server/accounts/auth.server'
import { clientAddress } from '~/server/edge/rate-limit.server'
import { apiError, getBearerToken } from '~/server/http/api.server'
import { log } from '~/server/platform/logger.server'

// Who is asking: the token API's signed-in person, and the sender a request's body counts against.

export async function requireApiUser(request: Request): Promise<SignedInUser> {
  const token = getBearerToken(request)
  const user = token ? await getApiUser(token) : null
  if (!user) throw apiError(401, 'Authentication required')
  return user
}

export async function requireApiAdmin(request: Request): Promise<SignedInUser> {
  const user = await requireApiUser(request)
  if (!user.isAdmin) {
    log('warn', 'auth.denied', { userId: user.id, path: new URL(request.url).pathname })
    throw apiError(403, 'Administrator access required')
  }
  return user
}

export function toApiUser(user: AuthUser) {
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, isAdmin: user.isAdmin }
}

/** The person a request counts against: its bearer token's or session's user, or else its address. */
export async function requestSender(request: Request): Promise<string> {
  const token = getBearerToken(request)
  const user = token ? await getApiUser(token) : await getOptionalUser(request)
  return user ? `user:${user.id}` : `address:${clientAddress()}`
}
