import { redirect, type ActionFunctionArgs } from 'react-router'
import { endCookieSession } from '~/server/accounts/auth.server'

export async function action({ request }: ActionFunctionArgs) {
  return redirect('/login', { headers: { 'Set-Cookie': await endCookieSession(request) } })
}

// Logging out changes state, so a GET does nothing but send the person home.
export function loader() {
  return redirect('/')
}
