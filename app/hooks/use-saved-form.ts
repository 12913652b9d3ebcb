import type { FormMetadata } from '@conform-to/react'
import { useCallback, useEffect } from 'react'
import { NARRATIVE_FIELDS } from '~/shared/narrative-schema'

// The dashboard form's unsaved edits, kept in this browser (docs/decisions/019). The server fills the
// form with the organisation last described; local storage only keeps what was typed since, under the
// user's own key, and is cleared at sign-out, so a shared browser shows no one else's organisation.

const PREFIX = 'impact-narrative-studio:form'
const SAVE_DELAY_MS = 400

const keyOf = (userId: string) => `${PREFIX}:${userId}`

/**
 * Restores this user's unsaved edits on load (unless `restore` is false) and keeps them as they are
 * typed. Returns the function that forgets them, for when a generation has started: the server then
 * remembers the inputs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useSavedForm(form: FormMetadata<any, string[]>, userId: string, { restore = true } = {}) {
  useEffect(() => {
    forgetOtherUsers(userId)
    if (!restore) return
    const saved = readSaved(userId)
    if (saved) form.update({ value: saved })
  }, [userId]) // eslint-disable-line react-hooks/exhaustive-deps

  const value = form.value
  useEffect(() => {
    if (!value) return
    const timer = setTimeout(() => write(keyOf(userId), pick(value as Record<string, unknown>)), SAVE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [value, userId])

  return useCallback(() => remove(keyOf(userId)), [userId])
}

/** At sign-out: every saved form in this browser. */
export function forgetSavedForms() {
  for (const key of storedKeys()) remove(key)
}

function forgetOtherUsers(userId: string) {
  for (const key of storedKeys()) if (key !== keyOf(userId)) remove(key)
}

function storedKeys(): string[] {
  try {
    return Object.keys(localStorage).filter((key) => key === PREFIX || key.startsWith(`${PREFIX}:`))
  } catch {
    return []
  }
}

function pick(value: Record<string, unknown>) {
  return Object.fromEntries(NARRATIVE_FIELDS.filter((name) => typeof value[name] === 'string').map((name) => [name, value[name] as string]))
}

function readSaved(userId: string): Record<string, string> | null {
  try {
    const value = JSON.parse(localStorage.getItem(keyOf(userId)) ?? 'null')
    if (!value || typeof value !== 'object') return null
    return pick(value)
  } catch {
    return null
  }
}

// Private browsing or a full quota: the form goes on without the saved copy.
function write(key: string, value: Record<string, string>) {
  try {
    localStorage.setItem(key, JSON.stringify(value))
  } catch {}
}

function remove(key: string) {
  try {
    localStorage.removeItem(key)
  } catch {}
}
