import { redirect } from '@remix-run/node'

// SPEC.md: any other path redirects to /.
export function loader() {
  return redirect('/')
}

export function action() {
  return redirect('/')
}
