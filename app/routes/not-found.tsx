import type { LoaderFunctionArgs } from 'react-router'
import { redirect } from 'react-router'

// Any other path redirects to / (docs/spec.md#routes), for pages a person might mistype; a missing
// resource, file or narrative page answers a 404, so a link that leads nowhere says so.
const NOT_A_PAGE = /^\/(resources|assets|admin\/narratives)\/|\.[a-z0-9]+$/i

function answer({ request }: LoaderFunctionArgs) {
  if (NOT_A_PAGE.test(new URL(request.url).pathname)) throw new Response('Not found', { status: 404 })
  return redirect('/')
}

export const loader = answer
export const action = answer

export default function NotFound() {
  return null
}
