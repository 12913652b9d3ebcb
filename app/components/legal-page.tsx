import type { ReactNode } from 'react'

export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <article className="legal">
      <h1>{title}</h1>
      <p className="legal-updated">Last updated: {updated}</p>
      {children}
    </article>
  )
}

export function LegalSection({ number, title, children }: { number?: number; title: string; children: ReactNode }) {
  const headingId = `section-${slugify(title)}`
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{number === undefined ? title : `${number}. ${title}`}</h2>
      {children}
    </section>
  )
}

function slugify(text: string) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}
