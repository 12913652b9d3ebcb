import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { enforceDownloadRateLimit } from '~/server/edge/limits.server'
import { getApplication } from '~/server/narratives/application.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { applicationDownload, applicationFileOptions, downloadForPage, downloadKindOf } from '~/server/narratives/downloads.server'

/** The application page's Word and PDF files: a plain form's GET, so they work without JavaScript. */
export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  return downloadForPage(async () => {
    await enforceDownloadRateLimit(user.id)
    const application = await getApplication({ id: params.id ?? '', viewer: user, signal: request.signal, withConflicts: false })
    if (!application) throw new Response('Not found', { status: 404 })
    const options = applicationFileOptions(url, localeSettings(request, user.locale))
    return applicationDownload(downloadKindOf(url), application, options, { userId: user.id, signal: request.signal })
  })
}
