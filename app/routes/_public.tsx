import { Outlet } from '@remix-run/react'

// Public pages (sign-in, sign-up, password reset, legal) share the root's top bar and footer.
export default function PublicLayout() {
  return <Outlet />
}
