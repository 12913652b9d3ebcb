import { Outlet } from 'react-router'

// Public pages (sign-in, sign-up, password reset, legal) share the root's top bar and footer.
export default function PublicLayout() {
  return <Outlet />
}
