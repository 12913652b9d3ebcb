import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { enforceDownloadRateLimit } from '~/server/edge/limits.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { downloadForPage, variantDownload } from '~/server/narratives/downloads.server'
import { getVariant } from '~/server/narratives/variants.server'

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  return downloadForPage(async () => {
    await enforceDownloadRateLimit(user.id)
    const variant = await getVariant({ id: params.id ?? '', viewer: user })
    if (!variant || variant.status !== 'complete') throw new Response('Not found', { status: 404 })
    const asker = { userId: user.id, signal: request.signal }
    return variantDownload('docx', variant, localeSettings(request, user.locale), asker, url.searchParams.get('tz') ?? undefined)
  })
}
