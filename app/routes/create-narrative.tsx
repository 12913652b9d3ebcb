import { redirect } from 'react-router'

// Sign-up's navigation target (SPEC.md section 2) lands on the dashboard.
export function loader() {
  return redirect('/dashboard')
}
