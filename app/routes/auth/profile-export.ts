import type { LoaderFunctionArgs } from 'react-router'
import { handleApi, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { accountExportResponse } from '~/server/accounts/account-export.server'

export const loader = ({ request }: LoaderFunctionArgs) => handleApi(async () => accountExportResponse(await requireApiUser(request)))

export const action = methodNotAllowed
