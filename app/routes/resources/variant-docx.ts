import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { enforceDownloadRateLimit, refuseAsText } from '~/server/edge/rate-limit.server'
import { documentLocale } from '~/server/narratives/document-locale.server'
import { variantDownload } from '~/server/narratives/downloads.server'
import { getVariant } from '~/server/narratives/variants.server'

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  await enforceDownloadRateLimit(user.id).catch(refuseAsText)
  const variant = await getVariant({ id: params.id ?? '', viewer: user })
  if (!variant || variant.status !== 'complete') throw new Response('Not found', { status: 404 })
  return variantDownload('docx', variant, documentLocale(request), url.searchParams.get('tz') ?? undefined)
}
