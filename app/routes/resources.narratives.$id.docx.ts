import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { narrativeDocxResponse } from '~/server/narratives/narrative-docx.server'
import { getNarrative } from '~/server/narratives/narratives.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  return narrativeDocxResponse(narrative, new URL(request.url).searchParams.get('tz') ?? undefined)
}
