import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { accountExportResponse } from '~/server/accounts/account-export.server'

/** The account page's download: the signed-in person's own data as a JSON attachment. */
export async function loader({ request, url }: LoaderFunctionArgs) {
  return accountExportResponse(await requireUser({ request, url }))
}
