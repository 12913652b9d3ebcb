import { redirect } from 'react-router'

// SPEC.md: any other path redirects to /.
export function loader() {
  return redirect('/')
}

export function action() {
  return redirect('/')
}
