import type { FieldMetadata } from '@conform-to/react'
import { useState, type ReactNode } from 'react'
import { IMPACT_EXAMPLES, type ImpactField } from '~/shared/examples'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { DEFAULT_TONE, TONE_DETAILS, TONES } from '~/shared/tones'
import { useLocale } from '~/hooks/use-locale'
import { spell } from '~/shared/locale'
import { ErrorList, Field, TextareaField } from './forms'

// Conform infers the value types from the route's schema; only the field names matter here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFieldMetadata = FieldMetadata<any, any, string[]>
export type NarrativeFields = { [Key in keyof NarrativeInput]-?: AnyFieldMetadata }

/** `coach`: the evidence coach, shown beside the impact fields. */
export function NarrativeFormFields({ fields, coach }: { fields: NarrativeFields; coach?: ReactNode }) {
  return (
    <>
      <OrganizationSection fields={fields} />
      <ContactsSection fields={fields} />
      <ImpactSection fields={fields} coach={coach} />
      <ToneSection meta={fields.selectedTone} />
    </>
  )
}

function FormSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="form-section">
      <legend>
        <h2>{title}</h2>
      </legend>
      {children}
    </fieldset>
  )
}

// The labels are written in US English; a person who writes UK English reads them spelled their way (docs/decisions/043).
function OrganizationSection({ fields }: { fields: NarrativeFields }) {
  const { variety } = useLocale()
  return (
    <FormSection title={spell('Organization Information', variety)}>
      <div className="field-row">
        <Field meta={fields.company} label={spell('Organization Name', variety)} inputProps={{ autoComplete: 'organization' }} />
        {/* type=text, not url: people type 'example.org' without a scheme and the browser would reject it. */}
        <Field
          meta={fields.website}
          label="Website"
          inputProps={{
            placeholder: 'https://example.org',
            inputMode: 'url',
            autoComplete: 'url',
            autoCapitalize: 'none',
            spellCheck: false,
          }}
        />
      </div>
    </FormSection>
  )
}

function ContactsSection({ fields }: { fields: NarrativeFields }) {
  return (
    <FormSection title="Key Contacts">
      <h3>Primary Contact</h3>
      <div className="field-row">
        <Field meta={fields.contactName1} label="Primary Contact Name" inputProps={{ autoComplete: 'name' }} />
        <Field meta={fields.contactTitle1} label="Primary Contact Title" inputProps={{ autoComplete: 'organization-title' }} />
        <Field meta={fields.contactEmail1} label="Primary Contact Email" type="email" inputProps={{ autoComplete: 'email' }} />
        <Field meta={fields.contactPhone1} label="Primary Contact Phone" type="tel" inputProps={{ autoComplete: 'tel' }} />
      </div>
      {/* Someone else's details: the browser should not offer the user's own. */}
      <h3>Secondary Contact (Optional)</h3>
      <div className="field-row">
        <Field meta={fields.contactName2} label="Secondary Contact Name" inputProps={{ autoComplete: 'off' }} />
        <Field meta={fields.contactTitle2} label="Secondary Contact Title" inputProps={{ autoComplete: 'off' }} />
        <Field meta={fields.contactEmail2} label="Secondary Contact Email" type="email" inputProps={{ autoComplete: 'off' }} />
        <Field meta={fields.contactPhone2} label="Secondary Contact Phone" type="tel" inputProps={{ autoComplete: 'off' }} />
      </div>
    </FormSection>
  )
}

const IMPACT_FIELDS: { name: ImpactField; label: string; rows: number; hint: string }[] = [
  {
    name: 'missionStatement',
    label: 'Mission Statement',
    rows: 4,
    hint: 'Why your organization exists and the change it works for, in a sentence or two.',
  },
  {
    name: 'keyPrograms',
    label: 'Key Programs and Services',
    rows: 4,
    hint: 'Your main programs or services: what each one does and who takes part.',
  },
  { name: 'geographicFocus', label: 'Geographic Focus', rows: 3, hint: 'Where you work: neighborhoods, towns, regions or countries.' },
  {
    name: 'impactMetrics',
    label: 'Impact Metrics and Achievements',
    rows: 4,
    hint: 'Numbers and results that show change, with the period they cover, plus any awards or recognition.',
  },
  { name: 'targetAudience', label: 'Target Audience', rows: 3, hint: 'The people you serve: ages, circumstances and communities.' },
  {
    name: 'successStory',
    label: 'Success Story or Quote',
    rows: 3,
    hint: 'Optional: one person’s story, or a quote from someone you serve, in their words and with their permission.',
  },
]

function ImpactSection({ fields, coach }: { fields: NarrativeFields; coach?: ReactNode }) {
  const { variety } = useLocale()
  // One example open at a time. The details also share a name, so browsers that support
  // exclusive accordions keep to one without JavaScript too.
  const [openExample, setOpenExample] = useState<ImpactField | null>(null)
  return (
    <FormSection title="Impact Information">
      <div className="impact-layout">
        <div className="impact-fields">
          {IMPACT_FIELDS.map(({ name, label, rows, hint }) => (
            <div className="field-with-example" key={name}>
              <TextareaField meta={fields[name]} label={spell(label, variety)} rows={rows} hint={spell(hint, variety)} />
              <details
                className="example"
                name="narrative-example"
                open={openExample === name}
                onToggle={(event) => {
                  const isOpen = event.currentTarget.open
                  setOpenExample((current) => (isOpen ? name : current === name ? null : current))
                }}
              >
                {/* Without JavaScript the details still open and close; only the wording stays put. */}
                <summary className="example-toggle">{openExample === name ? 'Hide Example' : 'View Example'}</summary>
                <p className="example-text">{IMPACT_EXAMPLES[name]}</p>
              </details>
            </div>
          ))}
        </div>
        {coach}
      </div>
    </FormSection>
  )
}

function ToneSection({ meta }: { meta: AnyFieldMetadata }) {
  const selected = meta.initialValue ?? DEFAULT_TONE
  const describedBy = [meta.descriptionId, meta.errors?.length ? meta.errorId : null].filter(Boolean).join(' ')
  return (
    <fieldset className="form-section" aria-describedby={describedBy}>
      <legend id={`${meta.id}-legend`}>
        <h2>Narrative Tone</h2>
      </legend>
      <p id={meta.descriptionId} className="field-hint">
        Choose the voice your narrative is written in.
      </p>
      {/* Native radios sharing one name: arrow keys move the choice. Keyed so a form reset re-reads the default. */}
      <div
        className="tone-cards"
        key={meta.key}
        role="radiogroup"
        aria-labelledby={`${meta.id}-legend`}
        aria-invalid={meta.errors?.length ? true : undefined}
      >
        {TONES.map((tone) => (
          <label className="tone-card" key={tone}>
            <input
              type="radio"
              name={meta.name}
              value={tone}
              defaultChecked={selected === tone}
              aria-labelledby={`${meta.id}-${tone}-title`}
              aria-describedby={`${meta.id}-${tone}-description`}
            />
            <span id={`${meta.id}-${tone}-title`} className="tone-card-title">
              {TONE_DETAILS[tone].label}
            </span>
            <span id={`${meta.id}-${tone}-description`} className="tone-card-description">
              {TONE_DETAILS[tone].description}
            </span>
          </label>
        ))}
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  )
}
