import type { LoaderFunctionArgs } from 'react-router'
import { enforceDownloadRateLimit } from '~/server/edge/limits.server'
import { apiError, handleApi, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { getApplication } from '~/server/narratives/application.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { applicationDownload, applicationFileOptions, downloadKindOf } from '~/server/narratives/downloads.server'

/** The whole application as Word or PDF; `?statement=1` adds how the text was made. */
export const loader = ({ request, params, url }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    await enforceDownloadRateLimit(user.id)
    const application = await getApplication({ id: params.id ?? '', viewer: user, signal: request.signal, withConflicts: false })
    if (!application) return apiError(404, 'Application not found')
    const options = applicationFileOptions(url, localeSettings(request, user.locale))
    return applicationDownload(downloadKindOf(url), application, options, { userId: user.id, signal: request.signal })
  })

export const action = methodNotAllowed
