import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { WordCount } from '~/components/claimed-text'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { useLocale } from '~/hooks/use-locale'
import { formatDate, formatDateTime } from '~/shared/dates'
import { engineLabel } from '~/shared/engines'
import { describeAmountRequested, spell } from '~/shared/locale'
import { NARRATIVE_WORDS } from '~/shared/narrative-text'

// The narrative page's parts that only show what its loader read: the funder it was written for, the
// text's heading, what it was written from and its footer.

export const NOT_PROVIDED = 'Not provided'

type Owner = { ownerName: string; ownerEmail: string; company: string; updatedAt: Date | string; website: string }
type Contacts = { contacts: Array<{ designation: string; lines: string[] }> }
type Inputs = {
  missionStatement: string
  targetAudience: string
  geographicFocus: string
  keyPrograms: string
  impactMetrics: string
  successStory: string
}
type Funder = { id: string | null; name: string; amountRequested: string | null; deadline: string | null }

/** What the narrative was written from, folded away under it; open without JavaScript too. */
export function OrganisationInputs({ narrative }: { narrative: Owner & Contacts & Inputs }) {
  const { variety } = useLocale()
  return (
    <section className="section-block" aria-labelledby="inputs-title">
      <h2 id="inputs-title">{spell("The organization's inputs", variety)}</h2>
      {/* The heading stays outside <summary>, whose content some screen readers do not list as headings. */}
      <details className="inputs-disclosure">
        <summary>Show what it was written from</summary>
        <CompanyInformation narrative={narrative} />
        <InputSections narrative={narrative} />
      </details>
    </section>
  )
}

function CompanyInformation({ narrative }: { narrative: Owner & Contacts }) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <section aria-labelledby="company-title">
      <h3 id="company-title">Company Information</h3>
      <dl className="detail-grid">
        <DetailItem term="Name">{narrative.ownerName || NOT_PROVIDED}</DetailItem>
        <DetailItem term="Email">{narrative.ownerEmail}</DetailItem>
        <DetailItem term="Company">{narrative.company}</DetailItem>
        <DetailItem term="Last Updated">{formatDate(narrative.updatedAt, timeZone, locale)}</DetailItem>
        <DetailItem term="Website">{narrative.website || NOT_PROVIDED}</DetailItem>
        {narrative.contacts.map((contact) => (
          <DetailItem key={contact.designation} term={`${contact.designation} Contact`}>
            {contact.lines.map((line) => (
              <span key={line} className="contact-line">
                {line}
              </span>
            ))}
          </DetailItem>
        ))}
      </dl>
    </section>
  )
}

function DetailItem({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}

function InputSections({ narrative }: { narrative: Inputs }) {
  const { variety } = useLocale()
  // The titles of docs/spec.md#narrative-page, each with the form field it was entered in, where the names differ.
  const sections: [string, string | null, string][] = [
    ['Mission Statement', null, narrative.missionStatement],
    ['Target Population', 'Target Audience', narrative.targetAudience],
    ['Geographic Focus', null, narrative.geographicFocus],
    ['Key Activities', 'Key Programs and Services', narrative.keyPrograms],
    ['Key Achievements', 'Impact Metrics and Achievements', narrative.impactMetrics],
    ['Success Story', 'Success Story or Quote', narrative.successStory],
  ]
  return (
    <div>
      {sections.map(([title, field, text]) => (
        <div key={title} className="section-block">
          <h3>
            {title}
            {field ? <span className="field-origin"> (the form's “{spell(field, variety)}”)</span> : null}
          </h3>
          <p>{text || NOT_PROVIDED}</p>
        </div>
      ))}
    </div>
  )
}

const STATUS_LABELS: Record<string, string> = { stopped: 'Stopped', failed: 'Failed', generating: 'Generating' }

export function FunderLine({ funder }: { funder: Funder }) {
  const locale = useLocale()
  const name = funder.id ? <Link to={`/funders/${encodeURIComponent(funder.id)}`}>{funder.name}</Link> : funder.name
  return (
    <p className="funder-line">
      Written for {name}
      {funder.amountRequested ? `, asking ${describeAmountRequested(funder.amountRequested, locale)}` : ''}
      {funder.deadline ? ` · deadline ${formatDate(`${funder.deadline}T12:00:00Z`, 'UTC', locale)}` : ''}
    </p>
  )
}

export function NarrativeHeading({
  narrative,
  maxWords,
}: {
  narrative: { generatedNarrative: string; engine: string; status: string }
  maxWords: number | null
}) {
  // A call's word limit below the usual length is the target.
  const target = maxWords && maxWords < NARRATIVE_WORDS.max ? { min: 0, max: maxWords } : NARRATIVE_WORDS
  return (
    <div className="output-header">
      <h2 id="narrative-title">Generated Narrative</h2>
      <WordCount text={narrative.generatedNarrative} min={target.min} max={target.max} />
      <span className="engine-label">{engineLabel(narrative.engine)}</span>
      {narrative.status === 'complete' ? null : (
        <span className={`status-badge status-${narrative.status}`}>{STATUS_LABELS[narrative.status] ?? narrative.status}</span>
      )}
    </div>
  )
}

export function MetaFooter({ narrative }: { narrative: { id: string; tone: string; updatedAt: Date | string } }) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <footer className="meta-footer">
      <p>
        ID: <code>{narrative.id}</code>
      </p>
      <p>Tone: {narrative.tone}</p>
      <p>Last updated: {formatDateTime(narrative.updatedAt, timeZone, locale)}</p>
    </footer>
  )
}
