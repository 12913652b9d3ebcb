import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { documentLocale } from '~/server/narratives/document-locale.server'
import { narrativeDocxResponse } from '~/server/narratives/narrative-docx.server'
import { getNarrative } from '~/server/narratives/narratives.server'

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  return narrativeDocxResponse(narrative, documentLocale(request), url.searchParams.get('tz') ?? undefined)
}
