import type { z } from 'zod'
import { getUserBySessionToken, type AuthUser } from '~/server/accounts/auth.server'
import type { UserSummary } from '~/shared/user-summary'
import { errorDetails, log } from '~/server/platform/logger.server'
import { RateLimitError } from '~/server/edge/rate-limit.server'
import { getRequestContext } from '~/server/platform/request-context.server'

/** The token API's error shape: `{ error, details? }`, never a stack trace. */
export function apiError(status: number, error: string, details?: unknown): Response {
  return Response.json(details === undefined ? { error } : { error, details }, { status })
}

/** For the verbs an API route does not have: the API's error shape, not React Router's default. */
export const methodNotAllowed = () => apiError(405, 'Method not allowed')

/** Reads a JSON body into an allow-listed schema: unknown fields (isAdmin, owner ids) are dropped. */
export async function readJson<Schema extends z.ZodTypeAny>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  const contentType = request.headers.get('Content-Type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(contentType)) throw apiError(415, 'Content-Type must be application/json')
  let body: unknown
  try {
    body = JSON.parse(await request.text())
  } catch {
    throw apiError(400, 'Request body is not valid JSON')
  }
  const result = schema.safeParse(withoutEmptyStrings(body))
  // `error` states the first problem in words; `details` holds every field's.
  if (!result.success) throw apiError(400, result.error.issues[0].message, result.error.flatten().fieldErrors)
  return result.data
}

// HTML forms send nothing for an empty field; JSON clients send "". Treat both alike.
function withoutEmptyStrings(body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== ''))
}

export function getBearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('Authorization') ?? '')
  return match ? match[1] : null
}

export async function requireApiUser(request: Request): Promise<AuthUser> {
  const token = getBearerToken(request)
  const user = token ? await getUserBySessionToken(token, 'api') : null
  if (!user) throw apiError(401, 'Authentication required')
  return user
}

export async function requireApiAdmin(request: Request): Promise<AuthUser> {
  const user = await requireApiUser(request)
  if (!user.isAdmin) {
    log('warn', 'auth.denied', { userId: user.id, path: new URL(request.url).pathname })
    throw apiError(403, 'Administrator access required')
  }
  return user
}

/** Runs an API handler; expected failures are thrown Responses, anything else is a logged 500. */
export async function handleApi(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler()
  } catch (error) {
    if (error instanceof Response) return error
    if (error instanceof RateLimitError) {
      const response = apiError(429, error.message)
      response.headers.set('Retry-After', String(error.retryAfterSeconds))
      return response
    }
    log('error', 'api.error', errorDetails(error))
    return apiError(500, 'Internal server error', { requestId: getRequestContext()?.requestId })
  }
}

export function toApiUser(user: AuthUser) {
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, isAdmin: user.isAdmin }
}

/** An entry of `GET /auth/` (its first fields as they always were) and the answer of `PATCH /auth/users/{id}`. */
export function toApiUserSummary(user: UserSummary) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    createdAt: user.createdAt,
    isAdmin: user.isAdmin,
    disabled: user.disabled,
    dailyLimit: user.dailyLimit,
    generationsToday: user.generationsToday,
    generationsTotal: user.generationsTotal,
  }
}
