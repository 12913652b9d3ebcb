import { forwardRef } from 'react'
import {
  coachSummary,
  EVIDENCE_FIELD_LABELS,
  FLAG_LABELS,
  METRIC_TYPE_LABELS,
  type EvidenceCheck,
  type EvidenceFlag,
  type SecondOpinion,
} from '~/shared/evidence'

/**
 * Never stops a generation (docs/decisions/032). Filled as its owner types (with JavaScript) or when "Check my
 * evidence" is sent.
 */
export const EvidenceCoach = forwardRef<HTMLElement, { check: EvidenceCheck | null; pending: boolean; error: string | null }>(
  function EvidenceCoach({ check, pending, error }, ref) {
    return (
      <aside className="evidence-coach" aria-labelledby="evidence-coach-title" id="evidence-coach" tabIndex={-1} ref={ref}>
        <h3 id="evidence-coach-title">Evidence coach</h3>
        <p className="field-hint">What a reviewer would ask of your figures before reading the narrative. It never stops you generating.</p>
        <p className="coach-summary" role="status">
          {error ?? (check ? coachSummary(check) : pending ? 'Checking your evidence...' : '')}
        </p>
        {/* On a wide screen the panel stays in view and its answer scrolls: a keyboard scrolls it too. */}
        <div className="coach-answer" role="region" aria-label="The coach's answer" tabIndex={0}>
          {check ? (
            <>
              {/* First: what the form as a whole lacks is what a reviewer asks first, and a long list of figures would hide it. */}
              {check.flags.length ? (
                <>
                  <h4>Across the form</h4>
                  <Flags flags={check.flags} />
                </>
              ) : null}
              {check.metrics.length ? <h4>Line by line</h4> : null}
              {check.metrics.length ? (
                <ol className="coach-metrics" aria-label="Your impact figures">
                  {check.metrics.map((metric, index) => (
                    <li key={`${index}-${metric.text}`} className="coach-metric">
                      <p className="coach-line">
                        <span className={`metric-type metric-type-${metric.type}`}>{METRIC_TYPE_LABELS[metric.type]}</span> {metric.text}
                      </p>
                      <p className="coach-reason">{metric.reason}</p>
                      <Flags flags={metric.flags} />
                    </li>
                  ))}
                </ol>
              ) : null}
              {check.secondOpinion ? <SecondOpinionRemarks opinion={check.secondOpinion} /> : null}
            </>
          ) : (
            <p className="coach-empty">Type your impact figures, or press “Check my evidence”, to see how a reviewer would read them.</p>
          )}
        </div>
      </aside>
    )
  },
)

function Flags({ flags }: { flags: EvidenceFlag[] }) {
  if (!flags.length) return null
  return (
    <ul className="coach-flags">
      {flags.map((flag, index) => (
        <li key={`${flag.kind}-${index}`} className="coach-flag">
          <strong>{FLAG_LABELS[flag.kind]}</strong>
          {flag.field && flag.field !== 'impactMetrics' ? ` (${EVIDENCE_FIELD_LABELS[flag.field]})` : null}
          {flag.words ? <span className="coach-words"> Found: “{flag.words}”.</span> : null} <span>{flag.suggestion}</span>
        </li>
      ))}
    </ul>
  )
}

function SecondOpinionRemarks({ opinion }: { opinion: SecondOpinion }) {
  return (
    <section className="coach-second-opinion" aria-labelledby="second-opinion-title">
      <h4 id="second-opinion-title">Second opinion from {opinion.engine}</h4>
      <p className="field-hint">The model’s own remarks: not checked by the rules above, and it may be wrong.</p>
      {opinion.error ? (
        <p>{opinion.error}</p>
      ) : opinion.remarks.length ? (
        <ul>
          {opinion.remarks.map((remark, index) => (
            <li key={index}>{remark}</li>
          ))}
        </ul>
      ) : (
        <p>The model had no remarks.</p>
      )}
    </section>
  )
}
