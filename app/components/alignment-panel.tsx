import { FIELD_LABELS } from '~/shared/narrative-schema'
import { useLocale } from '~/hooks/use-locale'
import { spell } from '~/shared/locale'

// A priority's state is said in words, never by colour alone (docs/decisions/030).

export type AlignmentView = {
  priority: string
  state: 'answered' | 'unsupported' | 'missing'
  sentences: string[]
  fields: string[]
  gap?: string
  quote?: string
  judgedBy?: string
}

const STATE_LABELS: Record<AlignmentView['state'], string> = {
  answered: 'Answered from your inputs',
  unsupported: 'Mentioned without support',
  missing: 'Not answered',
}

export function AlignmentPanel({ funder, alignment, coverage }: { funder: string; alignment: AlignmentView[]; coverage: number | null }) {
  const answered = alignment.filter((item) => item.state === 'answered').length
  const { variety } = useLocale()
  return (
    <section className="section-block" aria-labelledby="alignment-title" id="alignment">
      <h2 id="alignment-title">How it answers {funder}</h2>
      {alignment.length === 0 ? (
        <p>The brief lists no priorities: add them on the brief's page to see how the text answers each.</p>
      ) : (
        <>
          <p className="alignment-summary">
            {answered} of {alignment.length} priorities answered from your inputs
            {coverage !== null ? ` (coverage ${Math.round(coverage * 100)}%)` : ''}.
          </p>
          <ol className="alignment-list">
            {alignment.map((item, index) => (
              <li key={`${index}-${item.priority}`} className={`alignment-item alignment-${item.state}`}>
                <h3>
                  {item.priority} <span className={`state-badge state-${item.state}`}>{STATE_LABELS[item.state]}</span>
                </h3>
                {item.sentences.length ? (
                  <>
                    <p className="alignment-label">Answered by:</p>
                    <ul className="alignment-sentences">
                      {item.sentences.map((sentence) => (
                        <li key={sentence}>
                          <q>{sentence}</q>
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                {item.quote ? (
                  <p className="alignment-quote">
                    {item.judgedBy} found it in your inputs: <q>{item.quote}</q>
                  </p>
                ) : null}
                {item.fields.length ? (
                  <p className="alignment-fields">
                    From your {item.fields.map((field) => spell(FIELD_LABELS[field] ?? field, variety)).join(', ')}.
                  </p>
                ) : null}
                {item.gap ? <p className="alignment-gap">{item.gap}</p> : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}
