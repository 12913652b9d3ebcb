import type { LoaderFunctionArgs } from 'react-router'
import { handleApi, methodNotAllowed, requireApiUser } from '~/server/http/api.server'
import { accountExportResponse } from '~/server/accounts/account-export.server'

export const loader = ({ request }: LoaderFunctionArgs) => handleApi(async () => accountExportResponse(await requireApiUser(request)))

export const action = methodNotAllowed
