import { useHydrated } from '~/hooks/use-hydrated'
import { showToast } from './toaster'

/** Copies the plain text (no marks). Needs JavaScript, so it is only shown once the page has it. */
export function CopyButton({ text, label = 'Copy text' }: { text: string; label?: string }) {
  const hydrated = useHydrated()
  if (!hydrated) return null
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      showToast({ type: 'success', message: 'Copied to the clipboard.' })
    } catch {
      showToast({ type: 'error', message: 'Could not copy. Select the text and copy it instead.' })
    }
  }
  return (
    <button type="button" className="button button-secondary" onClick={copy}>
      {label}
    </button>
  )
}
