import { redirect, type LoaderFunctionArgs } from 'react-router'
import { getOptionalUser } from '~/server/accounts/auth.server'

export async function loader({ request }: LoaderFunctionArgs) {
  return redirect((await getOptionalUser(request)) ? '/dashboard' : '/login')
}
