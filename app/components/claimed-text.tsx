import type { ReactNode } from 'react'
import { countWords } from '~/shared/text'

/** A checkable statement of a text, as the server found it (app/server/narratives/claims.server.ts). */
export type ClaimView = { text: string; start: number; end: number; supported: boolean }

/** Unsupported statements are underlined and numbered like footnotes, not marked by colour alone, and named for screen readers. */
export function ClaimedText({ text, claims, idPrefix }: { text: string; claims: ClaimView[]; idPrefix: string }) {
  const parts: ReactNode[] = []
  let at = 0
  // Claims come in order and never overlap (findClaims).
  unsupportedOf(claims).forEach((claim, index) => {
    parts.push(text.slice(at, claim.start))
    parts.push(
      <mark key={claim.start} id={`${idPrefix}-${index + 1}`} className="claim-unsupported">
        {text.slice(claim.start, claim.end)}
        <sup className="claim-number" aria-hidden="true">
          {index + 1}
        </sup>
        <span className="visually-hidden"> (statement {index + 1}, not in your inputs)</span>
      </mark>,
    )
    at = claim.end
  })
  parts.push(text.slice(at))
  return <>{parts}</>
}

export function ClaimsSummary({ claims, idPrefix }: { claims: ClaimView[]; idPrefix: string }) {
  const unsupported = unsupportedOf(claims)
  if (!claims.length) return null
  if (!unsupported.length) {
    return <p className="claims-summary claims-summary-ok">Every figure and name in this text is in your inputs.</p>
  }
  const count = unsupported.length
  return (
    <div className="claims-summary claims-summary-warning">
      <p>
        <strong>
          {count} {count === 1 ? 'statement is' : 'statements are'} not in your inputs.
        </strong>{' '}
        Check {count === 1 ? 'it' : 'each'} before you send this text.
      </p>
      <ol>
        {unsupported.map((claim, index) => (
          <li key={claim.start}>
            <a href={`#${idPrefix}-${index + 1}`}>“{claim.text}”</a>
          </li>
        ))}
      </ol>
    </div>
  )
}

/** The word count against a target range, in words, not colour. */
export function WordCount({ text, min, max }: { text: string; min: number; max: number }) {
  const words = countWords(text)
  const inRange = words >= min && words <= max
  return (
    <span className={`word-count${inRange ? ' word-count-ok' : ''}`}>
      {words} {words === 1 ? 'word' : 'words'} {min === 0 ? `(at most ${max})` : `(target ${min}-${max})`}
    </span>
  )
}

function unsupportedOf(claims: ClaimView[]) {
  return claims.filter((claim) => !claim.supported)
}
