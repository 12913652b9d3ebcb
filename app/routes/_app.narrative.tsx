// SPEC.md: /narrative is the same screen as /dashboard.
export { action, default, loader, meta } from './_app.dashboard'
