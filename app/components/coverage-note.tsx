import { DRAFTER_ENGINE } from '~/shared/engines'
import { NARRATIVE_WORDS } from '~/shared/narrative-text'
import { countWords } from '~/shared/text'

export type LeftOutView = { kind: 'programme' | 'result' | 'figure' | 'story'; text: string }

const KIND_LABELS: Record<LeftOutView['kind'], string> = {
  programme: 'Programme',
  result: 'Result',
  figure: 'Figure',
  story: 'Story or quote',
}

/** The drafter leaves an item out only when its limit cannot hold it (docs/decisions/033); a short draft says why. */
export function CoverageNote({
  text,
  leftOut,
  engine,
  maxWords = null,
}: {
  text: string
  leftOut: LeftOutView[]
  engine: string | null
  /** A funder's word limit, when the text was written for one. */
  maxWords?: number | null
}) {
  const words = countWords(text)
  const drafter = engine === DRAFTER_ENGINE
  const limit = maxWords && maxWords < NARRATIVE_WORDS.max ? maxWords : NARRATIVE_WORDS.max
  const short = drafter && words > 0 && words < Math.min(NARRATIVE_WORDS.min, limit)
  if (!leftOut.length && !short) return null
  return (
    <div className="coverage-note">
      {leftOut.length ? (
        <>
          <p>
            <strong>Not in this text:</strong>{' '}
            {drafter ? `these items of your inputs did not fit in ${limit} words.` : 'these items of your inputs were not found in it.'}
          </p>
          <ul>
            {leftOut.map((item, index) => (
              <li key={index}>
                {KIND_LABELS[item.kind]}: “{item.text}”
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {short ? (
        <p>
          This draft is {words} words: the offline drafter writes only what your inputs say, and adds nothing of its own to reach{' '}
          {NARRATIVE_WORDS.min}. More programmes, results with their periods, or a story would give it more to say.
        </p>
      ) : null}
    </div>
  )
}
