import type { LoaderFunctionArgs } from 'react-router'
import { z } from 'zod'
import { apiError, handleApi, methodNotAllowed, toApiUserSummary } from '~/server/http/api.server'
import { requireApiAdmin } from '~/server/accounts/api-auth.server'
import { listUsers } from '~/server/accounts/users.server'

const PAGE_LIMIT_MAX = 100

// Without page or limit, every account, as this call always answered.
const ListQuerySchema = z.object({
  q: z.string().max(200).default(''),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).optional(),
})

export const loader = ({ request, url }: LoaderFunctionArgs) =>
  handleApi(async () => {
    await requireApiAdmin(request)
    const parsed = ListQuerySchema.safeParse(Object.fromEntries(url.searchParams))
    if (!parsed.success) {
      return apiError(400, `page is a whole number from 1; limit from 1 to ${PAGE_LIMIT_MAX}; q at most 200 characters`)
    }
    const { q, page, limit } = parsed.data
    const paged = page !== undefined || limit !== undefined
    const list = await listUsers({ query: q, page, limit: paged ? (limit ?? 20) : undefined })
    return Response.json({
      users: list.users.map(toApiUserSummary),
      ...(paged
        ? { pagination: { page: list.pagination.page, limit: limit ?? 20, total: list.pagination.total, pages: list.pagination.pages } }
        : {}),
    })
  })

export const action = methodNotAllowed
