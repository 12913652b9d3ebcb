import type { LocaleSettings } from '~/shared/locale'
import type { ToastMessage } from '~/shared/toast'

/** What the root route's loader gives every page: stated here so that hooks read it without importing the route. */
export type RootData = {
  user: { name: string; email: string; isAdmin: boolean } | null
  toast: ToastMessage | null
  contactEmail: string
  locale: LocaleSettings
}
