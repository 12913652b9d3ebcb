// /narrative is the same screen as /dashboard (docs/spec.md#routes).
export { action, default, loader, meta } from './_app.dashboard'
