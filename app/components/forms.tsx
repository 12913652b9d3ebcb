import type { FieldMetadata } from '@conform-to/react'
import { getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react'
import { useNavigation } from 'react-router'
import type { ComponentProps, ReactNode } from 'react'
import { useLocale } from '~/hooks/use-locale'
import { spell } from '~/shared/locale'

// Conform infers each field's value type from the schema; these components only need its metadata.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFieldMetadata = FieldMetadata<any, any, string[]>

/** The product's messages, spelled as the person's variety spells them ("Organisation Name is required"). */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { variety } = useLocale()
  if (!errors?.length) return null
  return (
    <ul id={id} className="field-errors">
      {errors.map((error) => (
        <li key={error}>{spell(error, variety)}</li>
      ))}
    </ul>
  )
}

/** A field's label, marked (visually only: the input says it is required) when the field is required. */
function FieldLabel({ htmlFor, required, children }: { htmlFor: string; required?: boolean; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor}>
      {children}
      {required ? (
        <span className="required-mark" aria-hidden="true">
          {' '}
          *
        </span>
      ) : null}
    </label>
  )
}

/** What every field shares: its label, its hint (tied to the control by `hintId`) and its errors. */
function FieldFrame({
  meta,
  label,
  required,
  hint,
  hintId,
  hintAs: Hint = 'p',
  children,
}: {
  meta: AnyFieldMetadata
  label: ReactNode
  required?: boolean
  hint?: ReactNode
  hintId?: string
  /** A div when the hint may hold blocks of its own (an example, a list). */
  hintAs?: 'p' | 'div'
  children: ReactNode
}) {
  return (
    <div className="field">
      <FieldLabel htmlFor={meta.id} required={required}>
        {label}
      </FieldLabel>
      {hint ? (
        <Hint id={hintId} className="field-hint">
          {hint}
        </Hint>
      ) : null}
      {children}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

type InputType = 'text' | 'email' | 'password' | 'url' | 'tel' | 'number' | 'date' | 'hidden'

/** A labelled input whose errors are announced and tied to it with aria-describedby. */
export function Field({
  meta,
  label,
  type = 'text',
  hint,
  inputProps,
}: {
  meta: AnyFieldMetadata
  label: ReactNode
  type?: InputType
  hint?: ReactNode
  inputProps?: Omit<ComponentProps<'input'>, 'name' | 'id' | 'type'>
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  const props = getInputProps(meta, { type, ariaDescribedBy: hintId })
  return (
    <FieldFrame meta={meta} label={label} required={props.required} hint={hint} hintId={hintId}>
      <input {...props} {...inputProps} key={props.key} />
    </FieldFrame>
  )
}

export function TextareaField({
  meta,
  label,
  rows = 3,
  hint,
  textareaProps,
}: {
  meta: AnyFieldMetadata
  label: ReactNode
  rows?: number
  hint?: ReactNode
  textareaProps?: Omit<ComponentProps<'textarea'>, 'name' | 'id'>
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  const props = getTextareaProps(meta, { ariaDescribedBy: hintId })
  return (
    <FieldFrame meta={meta} label={label} required={props.required} hint={hint} hintId={hintId} hintAs="div">
      <textarea {...props} rows={rows} {...textareaProps} key={props.key} />
    </FieldFrame>
  )
}

/** A labelled choice among `options` (value, label); its errors are tied to it as a Field's are. */
export function SelectField({
  meta,
  label,
  hint,
  options,
}: {
  meta: AnyFieldMetadata
  label: ReactNode
  hint?: ReactNode
  options: readonly { value: string; label: string }[]
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined
  const props = getSelectProps(meta, { ariaDescribedBy: hintId })
  return (
    <FieldFrame meta={meta} label={label} required={props.required} hint={hint} hintId={hintId}>
      <select {...props} key={props.key}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  )
}

export function CheckboxField({ meta, label }: { meta: AnyFieldMetadata; label: ReactNode }) {
  const props = getInputProps(meta, { type: 'checkbox' })
  return (
    <div className="field field-checkbox">
      <input {...props} key={props.key} />
      <label htmlFor={meta.id}>{label}</label>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

export function SubmitButton({
  children,
  pendingText,
  pending: ownPending,
  className = 'button button-primary button-block',
  ...props
}: ComponentProps<'button'> & {
  pendingText: string
  /** Whether this button's own form is being sent, where a page has several forms; else any POST. */
  pending?: boolean
}) {
  const navigation = useNavigation()
  const pending = ownPending ?? (navigation.state === 'submitting' && navigation.formMethod === 'POST')
  return (
    <button type="submit" className={className} aria-disabled={pending || undefined} {...props}>
      {pending ? pendingText : children}
    </button>
  )
}

export function ConsentFields({ acceptTerms, marketingConsent }: { acceptTerms: AnyFieldMetadata; marketingConsent: AnyFieldMetadata }) {
  return (
    <>
      <CheckboxField
        meta={acceptTerms}
        label={
          <>
            I agree to the{' '}
            <a href="/terms" target="_blank" rel="noreferrer">
              Terms of Service
            </a>{' '}
            and{' '}
            <a href="/privacy-policy" target="_blank" rel="noreferrer">
              Privacy Policy
            </a>{' '}
            (links open in a new tab).
          </>
        }
      />
      <CheckboxField
        meta={marketingConsent}
        label={
          <>
            I would like to receive emails from the Impact Narrative Studio team (at most about once a week; you can withdraw at any time,
            see{' '}
            <a href="/email-consent" target="_blank" rel="noreferrer">
              Email Consent
            </a>
            ).
          </>
        }
      />
    </>
  )
}
