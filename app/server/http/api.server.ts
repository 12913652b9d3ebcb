import { setImmediate } from 'node:timers/promises'
import { z } from 'zod'
import type { UserSummary } from '~/shared/user-summary'
import { errorDetails, log } from '~/server/platform/logger.server'
import { getRequestContext } from '~/server/platform/request-context.server'
import { RefusedError, refusalResponse } from '~/server/platform/refused-error.server'

export function apiError(status: number, error: string, details?: unknown): Response {
  return Response.json(details === undefined ? { error } : { error, details }, { status })
}

/** `Response.json({data: items.map(toJson), ...rest})` in 64 KB steps: a page of long texts is megabytes (decision 025). */
export function jsonListResponse<Item>(items: Item[], toJson: (item: Item) => unknown, rest: Record<string, unknown> = {}) {
  const encoder = new TextEncoder()
  let next = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let piece = next === 0 ? '{"data":[' : ''
      while (next < items.length && piece.length < LIST_STEP_CHARS) piece += (next ? ',' : '') + JSON.stringify(toJson(items[next++]))
      if (next === items.length) {
        const tail = JSON.stringify(rest)
        controller.enqueue(encoder.encode(`${piece}]${tail === '{}' ? '}' : `,${tail.slice(1)}`}`))
        controller.close()
        return
      }
      controller.enqueue(encoder.encode(piece))
      await setImmediate()
    },
  })
  return new Response(body, { headers: { 'Content-Type': 'application/json' } })
}

const LIST_STEP_CHARS = 64 * 1024

/** The API's error shape, not React Router's default. */
export const methodNotAllowed = () => apiError(405, 'Method not allowed')

/** Unknown fields (isAdmin, owner ids) are dropped by the allow-listed schema. */
export async function readJson<Schema extends z.ZodTypeAny>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  const contentType = request.headers.get('Content-Type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(contentType)) throw apiError(415, 'Content-Type must be application/json')
  let body: unknown
  try {
    body = JSON.parse(await request.text())
  } catch {
    throw apiError(400, 'Request body is not valid JSON')
  }
  // JSON may escape half of a character ("\ud800"): text no database or document can hold.
  if (hasLoneSurrogate(body)) throw apiError(400, 'Request body holds text that is not valid Unicode (a lone surrogate)')
  const result = schema.safeParse(withoutEmptyStrings(body))
  if (!result.success) throw apiError(400, result.error.issues[0].message, result.error.flatten().fieldErrors)
  return result.data
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value)
  if (Array.isArray(value)) return value.some(hasLoneSurrogate)
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => hasLoneSurrogate(key) || hasLoneSurrogate(item))
  return false
}

export function readPage(url: URL, maxLimit: number, defaultLimit = 10) {
  const parsed = z
    .object({
      page: z.coerce.number().int().min(1).default(1),
      limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
    })
    .safeParse({ page: url.searchParams.get('page') ?? undefined, limit: url.searchParams.get('limit') ?? undefined })
  if (!parsed.success) throw apiError(400, `page must be a whole number from 1, and limit one from 1 to ${maxLimit}`)
  return parsed.data
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

export async function handleApi(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler()
  } catch (error) {
    if (error instanceof Response) return error
    // A refusal says what to do: a rate limit, work that overran the pool, a quota, a limit of the account.
    if (error instanceof RefusedError) return refusalResponse(error, 'json')
    log('error', 'api.error', errorDetails(error))
    return apiError(500, 'Internal server error', { requestId: getRequestContext()?.requestId })
  }
}

/** Its first fields keep the names they always had (`first_name`, `last_name`). */
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
