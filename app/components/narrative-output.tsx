import { countWords } from '~/shared/text'
import type { StreamStatus } from '~/hooks/use-generation'

const TARGET_MIN = 300
const TARGET_MAX = 400

export function engineLabel(engine: string) {
  return engine === 'offline-drafter' ? 'Written by the offline drafter' : `Written by ${engine}`
}

const STATUS_NOTES: Partial<Record<StreamStatus, string>> = {
  stopped: 'Stopped: the text below is what was written before you pressed Stop.',
  failed: 'An error occurred while generating the narrative. Please try again.',
}

/** The 400px output box: live text, a word count against the 300-400 target, and who wrote it. */
export function NarrativeOutput({ text, status, engine }: { text: string; status: StreamStatus; engine: string | null }) {
  const generating = status === 'generating'
  const words = countWords(text)
  const inRange = words >= TARGET_MIN && words <= TARGET_MAX
  return (
    <section className="card output" aria-labelledby="output-title">
      <div className="output-header">
        <h2 id="output-title">{generating ? 'Generating Narrative...' : 'Generated Impact Narrative'}</h2>
        {engine ? <span className="engine-label">{engineLabel(engine)}</span> : null}
        <span className={`word-count${inRange ? ' word-count-ok' : ''}`}>
          {words} {words === 1 ? 'word' : 'words'} (target {TARGET_MIN}-{TARGET_MAX})
        </span>
      </div>
      {STATUS_NOTES[status] ? <p className={`status-note status-note-${status}`}>{STATUS_NOTES[status]}</p> : null}
      {/* Polite, non-atomic: screen readers hear new text as it arrives without interruptions. */}
      <div className="output-box" role="log" aria-live="polite" aria-atomic="false" tabIndex={0}>
        {text || (generating ? '' : <span className="output-placeholder">Your narrative will appear here.</span>)}
        {generating ? <span className="cursor" aria-hidden="true" /> : null}
      </div>
    </section>
  )
}
