import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { getOptionalUser } from '~/utils/auth.server'

export async function loader({ request }: LoaderFunctionArgs) {
  return redirect((await getOptionalUser(request)) ? '/dashboard' : '/login')
}
