import type { FormMetadata } from '@conform-to/react'
import { useEffect } from 'react'
import { NARRATIVE_FIELDS } from '~/shared/narrative-schema'
import { DEFAULT_TONE } from '~/shared/tones'

// The server fills the form from the user's last generation (decision 019); local storage keeps only what was
// typed since, under the user's key, cleared at sign-out so a shared browser shows no one else's organisation.

const PREFIX = 'impact-narrative-studio:form'
const SAVE_DELAY_MS = 400

const keyOf = (userId: string) => `${PREFIX}:${userId}`

// Set at sign-out, so a save still waiting on its delay does not write the edits back.
let signingOut = false

type Values = Record<string, string>
/** `basedOn`: the generation the form held when the values were typed. */
type Draft = { basedOn: string | null; values: Values }

/** Edits are restored only while no generation has happened since; off while editing a saved narrative (`?from=`). */
export function useSavedForm(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: FormMetadata<any, string[]>,
  { userId, server, basedOn, enabled }: { userId: string; server: Partial<Values> | null; basedOn: string | null; enabled: boolean },
) {
  useEffect(() => {
    signingOut = false
    forgetOtherUsers(userId)
    if (!enabled) return
    const draft = readDraft(userId)
    if (draft?.basedOn === basedOn) form.update({ value: draft.values })
    else if (draft) remove(keyOf(userId))
  }, [userId]) // eslint-disable-line react-hooks/exhaustive-deps

  const value = form.value
  useEffect(() => {
    if (!enabled) return
    const timer = setTimeout(() => {
      if (signingOut) return
      const values = pick(value)
      // Once a generation starts the server has these inputs; an untouched form holds nothing typed.
      if (same(values, untouched(server))) remove(keyOf(userId))
      else write(keyOf(userId), { basedOn, values })
    }, SAVE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [value, server, basedOn, userId, enabled])
}

/** The old unkeyed one included. */
export function forgetSavedForms() {
  signingOut = true
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

function pick(value: unknown): Values {
  const record = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>
  return Object.fromEntries(NARRATIVE_FIELDS.map((name) => [name, typeof record[name] === 'string' ? record[name] : '']))
}

/** The form before anything is typed: the server's copy, or empty with the default tone. */
function untouched(server: Partial<Values> | null): Values {
  const values = pick(server)
  return { ...values, selectedTone: values.selectedTone || DEFAULT_TONE }
}

const same = (a: Values, b: Values) => NARRATIVE_FIELDS.every((name) => a[name] === b[name])

function readDraft(userId: string): Draft | null {
  try {
    const draft = JSON.parse(localStorage.getItem(keyOf(userId)) ?? 'null')
    if (!draft || typeof draft !== 'object' || !('values' in draft)) return null
    return { basedOn: typeof draft.basedOn === 'string' ? draft.basedOn : null, values: pick(draft.values) }
  } catch {
    return null
  }
}

// Private browsing or a full quota: the form goes on without the saved copy.
function write(key: string, draft: Draft) {
  try {
    localStorage.setItem(key, JSON.stringify(draft))
  } catch {}
}

function remove(key: string) {
  try {
    localStorage.removeItem(key)
  } catch {}
}
