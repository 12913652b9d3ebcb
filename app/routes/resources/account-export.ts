import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { accountExportResponse } from '~/server/accounts/account-export.server'

export async function loader({ request, url }: LoaderFunctionArgs) {
  return accountExportResponse(await requireUser({ request, url }))
}
