import type { LoaderFunctionArgs } from 'react-router'
import { enforceDownloadRateLimit } from '~/server/edge/limits.server'
import { apiError, handleApi, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { downloadKindOf, narrativeDownload } from '~/server/narratives/downloads.server'
import { getNarrative } from '~/server/narratives/narratives.server'

export const loader = ({ request, params, url }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    await enforceDownloadRateLimit(user.id)
    const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
    if (!narrative) return apiError(404, 'Narrative not found')
    return narrativeDownload(
      downloadKindOf(url),
      narrative,
      localeSettings(request, user.locale),
      { userId: user.id, signal: request.signal },
      url.searchParams.get('tz') ?? undefined,
    )
  })

export const action = methodNotAllowed
