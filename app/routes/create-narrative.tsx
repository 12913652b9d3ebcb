import { redirect } from 'react-router'

// Sign-up's navigation target (docs/spec.md#sign-up).
export function loader() {
  return redirect('/dashboard')
}
