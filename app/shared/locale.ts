// No React here: env.server.ts reads this before the server has set NODE_ENV, and React picks its build
// (development or production) when it is first imported.

export function isKnownLocale(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0
  } catch {
    return false // not a well-formed language tag
  }
}
