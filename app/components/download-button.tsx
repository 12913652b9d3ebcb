import type { MouseEvent, ReactNode } from 'react'
import { showToast } from './toaster'

const DOWNLOADED = { docx: 'Word document downloaded successfully!', pdf: 'PDF downloaded successfully!' }
const DOWNLOAD_FAILED = 'Failed to download narrative. Please try again.'

export const narrativeDocxPath = (id: string) => `/resources/narratives/${encodeURIComponent(id)}/docx`
export const narrativePdfPath = (id: string) => `/resources/narratives/${encodeURIComponent(id)}/pdf`

/**
 * A plain link to the Word or PDF file (works without JavaScript); with JavaScript it downloads in
 * place, dates the title in the reader's time zone and confirms with a toast.
 */
export function DownloadButton({
  href,
  label,
  icon,
  className = 'button button-secondary',
}: {
  /** The file's resource route, ending in /docx or /pdf. */
  href: string
  label: string
  /** Shown instead of the label text (an icon and a word); the label stays the accessible name. */
  icon?: ReactNode
  className?: string
}) {
  async function download(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault()
    try {
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone
      const response = await fetch(`${href}?tz=${encodeURIComponent(timeZone)}`)
      if (!response.ok) throw new Error(`Download failed with ${response.status}`)
      const kind = href.endsWith('/pdf') ? 'pdf' : 'docx'
      saveBlob(await response.blob(), fileNameFrom(response.headers.get('Content-Disposition'), kind))
      showToast({ type: 'success', message: DOWNLOADED[kind] })
    } catch {
      showToast({ type: 'error', message: DOWNLOAD_FAILED })
    }
  }
  return (
    <a href={href} className={className} download onClick={download} {...(icon ? { 'aria-label': label } : {})}>
      {icon ?? label}
    </a>
  )
}

function fileNameFrom(disposition: string | null, kind: 'docx' | 'pdf') {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? `organizational-narrative.${kind}`
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
