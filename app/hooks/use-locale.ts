import { createContext, useContext } from 'react'
import { US_ENGLISH, type LocaleSettings } from '~/shared/locale'

/**
 * How this person's pages write dates, money and words (docs/decisions/043): the root loader's, which reads
 * their choices with their session and their browser's Accept-Language for the rest. root.tsx provides it
 * around every page; a component drawn outside one (a test's) writes the product's own US English.
 */
export const LocaleContext = createContext<LocaleSettings>(US_ENGLISH)

export function useLocale(): LocaleSettings {
  return useContext(LocaleContext)
}
