import { engineLabel } from '~/shared/engines'
import { ClaimedText, ClaimsSummary, WordCount, type ClaimView } from '~/components/claimed-text'
import { NARRATIVE_WORDS } from '~/shared/narrative-text'
import type { Ref } from 'react'
import type { StreamStatus } from '~/hooks/use-generation'
import { countWords } from '~/shared/text'
import { CoverageNote, type LeftOutView } from '~/components/coverage-note'

const STATUS_NOTES: Partial<Record<StreamStatus, string>> = {
  stopped: 'Stopped: the text below is what was written before you pressed Stop.',
  failed: 'An error occurred while generating the narrative. Please try again.',
}

/** Once saved, statements not found in the inputs are marked (`claims`, from the saved record). */
export function NarrativeOutput({
  text,
  status,
  engine,
  claims,
  leftOut,
  maxWords,
  ref,
}: {
  text: string
  status: StreamStatus
  engine: string | null
  claims?: ClaimView[]
  /** What of the inputs the saved text does not carry; known once it is saved. */
  leftOut?: LeftOutView[]
  /** A funder's word limit, when the text was written for one. */
  maxWords?: number | null
  /** The text's box, which takes focus when a generation starts (the pressed button is disabled). */
  ref?: Ref<HTMLDivElement>
}) {
  const generating = status === 'generating'
  const checked = !generating && claims ? claims : null
  return (
    <section className="card output" aria-labelledby="output-title">
      <div className="output-header">
        <h2 id="output-title">{generating ? 'Generating Narrative...' : 'Generated Impact Narrative'}</h2>
        {engine ? <span className="engine-label">{engineLabel(engine)}</span> : null}
        <WordCount text={text} min={NARRATIVE_WORDS.min} max={NARRATIVE_WORDS.max} />
      </div>
      {STATUS_NOTES[status] ? <p className={`status-note status-note-${status}`}>{STATUS_NOTES[status]}</p> : null}
      {checked ? <ClaimsSummary claims={checked} idPrefix="output-claim" /> : null}
      {checked && leftOut && status === 'complete' ? (
        <CoverageNote text={text} leftOut={leftOut} engine={engine} maxWords={maxWords} />
      ) : null}
      {/* Screen readers hear that writing started and how it ended, not every piece; the text is busy
          meanwhile and can be read once written. */}
      <p className="visually-hidden" role="status">
        {announcement(status, text)}
      </p>
      <div ref={ref} className="output-box" role="region" aria-label="Narrative text" aria-busy={generating} tabIndex={0}>
        {checked ? <ClaimedText text={text} claims={checked} idPrefix="output-claim" /> : text}
        {!text && !generating ? <span className="output-placeholder">Your narrative will appear here.</span> : null}
        {generating ? <span className="cursor" aria-hidden="true" /> : null}
      </div>
    </section>
  )
}

function announcement(status: StreamStatus, text: string) {
  if (status === 'generating') return 'Writing your narrative...'
  if (status === 'complete') return `Narrative written: ${countWords(text)} words.`
  if (status === 'stopped') return 'Generation stopped.'
  if (status === 'failed') return 'Generation failed.'
  return ''
}
