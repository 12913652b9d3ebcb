import { Outlet } from 'react-router'

// This layout guards nothing: each loader and action calls requireUser itself, because layout
// loaders run in parallel with their children's.
export default function AppLayout() {
  return <Outlet />
}
