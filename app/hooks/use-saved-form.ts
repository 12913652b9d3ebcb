import type { FormMetadata } from '@conform-to/react'
import { useCallback, useEffect } from 'react'
import { NARRATIVE_FIELDS } from '~/shared/narrative-schema'

const STORAGE_KEY = 'impact-narrative-studio:form'

/**
 * SPEC.md: the form is saved to local storage at each generation and restored on load.
 * Returns the function that saves it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useSavedForm(form: FormMetadata<any, string[]>, { restore = true } = {}) {
  useEffect(() => {
    if (!restore) return
    const saved = readSaved()
    if (saved) form.update({ value: saved })
  }, []) // eslint-disable-line react-hooks/exhaustive-deps

  return useCallback((formData: FormData) => {
    const values = Object.fromEntries(NARRATIVE_FIELDS.map((name) => [name, String(formData.get(name) ?? '')]))
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(values))
    } catch {
      // Private browsing or a full quota: the generation goes on without the saved copy.
    }
  }, [])
}

function readSaved(): Record<string, string> | null {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null')
    if (!value || typeof value !== 'object') return null
    return Object.fromEntries(NARRATIVE_FIELDS.filter((name) => typeof value[name] === 'string').map((name) => [name, value[name]]))
  } catch {
    return null
  }
}
