import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { enforceDownloadRateLimit } from '~/server/edge/limits.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { downloadForPage, downloadKindOf, narrativeDownload } from '~/server/narratives/downloads.server'
import { getNarrative } from '~/server/narratives/narratives.server'

/** The pages' Word and PDF downloads of a narrative: plain links, so they work without JavaScript. */
export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  return downloadForPage(async () => {
    await enforceDownloadRateLimit(user.id)
    const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
    if (!narrative) throw new Response('Not found', { status: 404 })
    const asker = { userId: user.id, signal: request.signal }
    return narrativeDownload(
      downloadKindOf(url),
      narrative,
      localeSettings(request, user.locale),
      asker,
      url.searchParams.get('tz') ?? undefined,
    )
  })
}
