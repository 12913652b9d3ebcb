import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/utils/auth.server'
import { narrativeDocxResponse } from '~/utils/narrative-docx.server'
import { getNarrative } from '~/utils/narratives.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  return narrativeDocxResponse(narrative, new URL(request.url).searchParams.get('tz') ?? undefined)
}
