import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useEffect, useMemo, useRef } from 'react'
import { Form, useNavigation } from 'react-router'
import { ErrorList, Field, SelectField, SubmitButton } from '~/components/forms'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { ACCOUNT_FORMS, type AccountIntent } from '~/shared/account-forms'
import {
  CURRENCIES,
  CURRENCY_LABELS,
  formatDate,
  PAPER_LABELS,
  PAPERS,
  VARIETIES,
  VARIETY_LABELS,
  type DateFormat,
  type LocaleChoices,
  type LocaleSettings,
} from '~/shared/locale'

// The account page's forms, one for each intent (docs/spec.md#account): each a plain POST, so the page works without JavaScript.

type FormProps = { lastResult?: SubmissionResult<string[]> }

/**
 * A form without a default value (the ones with passwords) is emptied once its submission has succeeded:
 * the action redirects back here, so the page stays mounted and would otherwise keep what was typed.
 */
function useIntentForm(intent: AccountIntent, lastResult: SubmissionResult<string[]> | undefined, defaultValue?: Record<string, string>) {
  const { schema } = ACCOUNT_FORMS[intent]
  const [form, fields] = useSchemaForm(schema, {
    id: `account-${intent}`,
    lastResult,
    defaultValue,
  })
  const navigation = useNavigation()
  const submitting = navigation.formData?.get('intent') === intent
  const wasSubmitting = useRef(false)
  useEffect(() => {
    if (submitting) wasSubmitting.current = true
    else if (wasSubmitting.current && navigation.state === 'idle') {
      wasSubmitting.current = false
      if (!lastResult && !defaultValue) form.reset()
    }
  }, [submitting, navigation.state, lastResult, defaultValue, form])
  return [form, fields, submitting] as const
}

export function NameForm({ lastResult, defaultValue }: FormProps & { defaultValue: { firstName: string; lastName: string } }) {
  const [form, fields, submitting] = useIntentForm('name', lastResult, defaultValue)
  return (
    <section className="form-section" aria-labelledby="name-title">
      <h2 id="name-title">Name</h2>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="name" />
        <div className="field-row">
          <Field meta={fields.firstName} label="First name" inputProps={{ autoComplete: 'given-name' }} />
          <Field meta={fields.lastName} label="Last name" inputProps={{ autoComplete: 'family-name' }} />
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Saving..." pending={submitting} className="button button-primary">
          Save name
        </SubmitButton>
      </Form>
    </section>
  )
}

export function EmailForm({ lastResult, email, linkHours }: FormProps & { email: string; linkHours: number }) {
  const [form, fields, submitting] = useIntentForm('email', lastResult)
  return (
    <section className="form-section" aria-labelledby="email-title">
      <h2 id="email-title">Email</h2>
      <p>
        Your email is <strong>{email}</strong>. We send a link to the new address, and your email changes when you open it (the link works
        for {linkHours} hours). We also let your current address know.
      </p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="email" />
        <Field meta={fields.email} label="New email" type="email" inputProps={{ autoComplete: 'email' }} />
        <Field meta={fields.currentPassword} label="Current password" type="password" inputProps={{ autoComplete: 'current-password' }} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Sending..." pending={submitting} className="button button-primary">
          Send confirmation link
        </SubmitButton>
      </Form>
    </section>
  )
}

export function PasswordForm({ lastResult }: FormProps) {
  const [form, fields, submitting] = useIntentForm('password', lastResult)
  return (
    <section className="form-section" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p>Every other device signed in to your account is signed out; this one stays signed in.</p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="password" />
        <Field meta={fields.currentPassword} label="Current password" type="password" inputProps={{ autoComplete: 'current-password' }} />
        <Field
          meta={fields.newPassword}
          label="New password"
          type="password"
          hint="At least 8 characters."
          inputProps={{ autoComplete: 'new-password' }}
        />
        <Field meta={fields.confirmPassword} label="Confirm new password" type="password" inputProps={{ autoComplete: 'new-password' }} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Changing..." pending={submitting} className="button button-primary">
          Change password
        </SubmitButton>
      </Form>
    </section>
  )
}

const SAMPLE_DATE = '2026-11-28T12:00:00Z'
const DATE_FORMAT_OPTIONS: { value: DateFormat; label: string }[] = [
  { value: 'day-month-year', label: formatDate(SAMPLE_DATE, 'UTC', { locale: 'en-GB', dateFormat: 'day-month-year' }) },
  { value: 'month-day-year', label: formatDate(SAMPLE_DATE, 'UTC', { locale: 'en-US', dateFormat: 'month-day-year' }) },
  { value: 'iso', label: `${formatDate(SAMPLE_DATE, 'UTC', { locale: 'en-US', dateFormat: 'iso' })} (ISO 8601)` },
]

/** Each choice can be left to the browser: the first option, named with what it comes to now. */
export function LocaleForm({
  lastResult,
  choices,
  browser,
  unchosen,
}: FormProps & { choices: LocaleChoices; browser: LocaleSettings; unchosen: LocaleSettings }) {
  const defaultValue = useMemo(
    () => ({
      variety: choices.variety ?? '',
      dateFormat: choices.dateFormat ?? '',
      currency: choices.currency ?? '',
      paper: choices.paper ?? '',
    }),
    [choices.variety, choices.dateFormat, choices.currency, choices.paper],
  )
  const [form, fields, submitting] = useIntentForm('locale', lastResult, defaultValue)
  // With a variety chosen, the currency and paper left unchosen are that variety's country's.
  const fromUnchosen = (value: string) =>
    choices.variety ? `As ${VARIETY_LABELS[choices.variety]} has it (${value})` : `From my browser (${value})`
  return (
    <section className="form-section" aria-labelledby="locale-title">
      <h2 id="locale-title">Language, dates and money</h2>
      <p>
        How your pages and your Word and PDF files spell words such as “organization”, write dates and amounts, and which paper the files
        are laid out on. What you leave “From my browser” follows the language your browser asks for.
      </p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="locale" />
        <div className="field-row field-row-wide">
          <SelectField
            meta={fields.variety}
            label="Language"
            options={[
              { value: '', label: `From my browser (${VARIETY_LABELS[browser.variety]})` },
              ...VARIETIES.map((variety) => ({ value: variety, label: VARIETY_LABELS[variety] })),
            ]}
          />
          <SelectField
            meta={fields.dateFormat}
            label="Dates"
            options={[
              { value: '', label: `As my language (${formatDate(SAMPLE_DATE, 'UTC', { ...unchosen, dateFormat: null })})` },
              ...DATE_FORMAT_OPTIONS,
            ]}
          />
          <SelectField
            meta={fields.currency}
            label="Currency"
            hint="For amounts that name none; a funder's call keeps its own."
            options={[
              { value: '', label: fromUnchosen(unchosen.currency) },
              ...CURRENCIES.map((currency) => ({ value: currency, label: CURRENCY_LABELS[currency] })),
            ]}
          />
          <SelectField
            meta={fields.paper}
            label="Paper"
            hint="For the Word and PDF files."
            options={[
              { value: '', label: fromUnchosen(PAPER_LABELS[unchosen.paper]) },
              ...PAPERS.map((paper) => ({ value: paper, label: PAPER_LABELS[paper] })),
            ]}
          />
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Saving..." pending={submitting} className="button button-primary">
          Save these choices
        </SubmitButton>
      </Form>
    </section>
  )
}

export function DeleteForm({ lastResult }: FormProps) {
  const [form, fields, submitting] = useIntentForm('delete', lastResult)
  return (
    <section className="form-section" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete account</h2>
      <p>
        This deletes your account and every narrative, version, variant and funder brief in it, at once and for good. Download your data
        first if you want to keep it.
      </p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="delete" />
        <Field
          meta={fields.password}
          label="Password"
          type="password"
          hint="Enter your password to confirm."
          inputProps={{ autoComplete: 'current-password' }}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Deleting..." pending={submitting} className="button button-danger">
          Delete my account
        </SubmitButton>
      </Form>
    </section>
  )
}
