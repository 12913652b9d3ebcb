import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { type ReactNode, useEffect, useMemo, useRef } from 'react'
import { Form, useNavigation } from 'react-router'
import { CheckboxField, ErrorList, Field, SelectField, SubmitButton } from '~/components/forms'
import { CopyButton } from '~/components/copy-button'
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

/** Each form's title and button. */
const TEXTS: Record<AccountIntent, { title: string; pendingText: string; submitText: string }> = {
  name: { title: 'Name', pendingText: 'Saving...', submitText: 'Save name' },
  email: { title: 'Email', pendingText: 'Sending...', submitText: 'Send confirmation link' },
  password: { title: 'Password', pendingText: 'Changing...', submitText: 'Change password' },
  locale: { title: 'Language, dates and money', pendingText: 'Saving...', submitText: 'Save these choices' },
  calendar: { title: 'Deadlines in your calendar', pendingText: 'Renewing...', submitText: 'Renew the address' },
  reminders: { title: 'Deadline reminders', pendingText: 'Saving...', submitText: 'Save' },
  delete: { title: 'Delete account', pendingText: 'Deleting...', submitText: 'Delete my account' },
}

/** One form of the page: its section and title, the form with its intent, and its errors and button. */
function IntentFormSection({
  intent,
  intro,
  form,
  submitting,
  children,
}: {
  intent: AccountIntent
  intro?: ReactNode
  form: ReturnType<typeof useIntentForm>[0]
  submitting: boolean
  children: ReactNode
}) {
  const { title, pendingText, submitText } = TEXTS[intent]
  const danger = intent === 'delete'
  const quiet = intent === 'calendar'
  return (
    <section className="form-section" aria-labelledby={`${intent}-title`}>
      <h2 id={`${intent}-title`}>{title}</h2>
      {intro}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        {children}
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton
          pendingText={pendingText}
          pending={submitting}
          className={`button ${danger ? 'button-danger' : quiet ? 'button-secondary' : 'button-primary'}`}
        >
          {submitText}
        </SubmitButton>
      </Form>
    </section>
  )
}

export function NameForm({ lastResult, defaultValue }: FormProps & { defaultValue: { firstName: string; lastName: string } }) {
  const [form, fields, submitting] = useIntentForm('name', lastResult, defaultValue)
  return (
    <IntentFormSection intent="name" form={form} submitting={submitting}>
      <div className="field-row">
        <Field meta={fields.firstName} label="First name" inputProps={{ autoComplete: 'given-name' }} />
        <Field meta={fields.lastName} label="Last name" inputProps={{ autoComplete: 'family-name' }} />
      </div>
    </IntentFormSection>
  )
}

export function EmailForm({ lastResult, email, linkHours }: FormProps & { email: string; linkHours: number }) {
  const [form, fields, submitting] = useIntentForm('email', lastResult)
  return (
    <IntentFormSection
      intent="email"
      form={form}
      submitting={submitting}
      intro={
        <p>
          Your email is <strong>{email}</strong>. We send a link to the new address, and your email changes when you open it (the link works
          for {linkHours} hours). We also let your current address know.
        </p>
      }
    >
      <Field meta={fields.email} label="New email" type="email" inputProps={{ autoComplete: 'email' }} />
      <Field meta={fields.currentPassword} label="Current password" type="password" inputProps={{ autoComplete: 'current-password' }} />
    </IntentFormSection>
  )
}

export function PasswordForm({ lastResult }: FormProps) {
  const [form, fields, submitting] = useIntentForm('password', lastResult)
  return (
    <IntentFormSection
      intent="password"
      form={form}
      submitting={submitting}
      intro={<p>Every other device signed in to your account is signed out; this one stays signed in.</p>}
    >
      <Field meta={fields.currentPassword} label="Current password" type="password" inputProps={{ autoComplete: 'current-password' }} />
      <Field
        meta={fields.newPassword}
        label="New password"
        type="password"
        hint="At least 8 characters."
        inputProps={{ autoComplete: 'new-password' }}
      />
      <Field meta={fields.confirmPassword} label="Confirm new password" type="password" inputProps={{ autoComplete: 'new-password' }} />
    </IntentFormSection>
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
    <IntentFormSection
      intent="locale"
      form={form}
      submitting={submitting}
      intro={
        <p>
          How your pages and your Word and PDF files spell words such as “organization”, write dates and amounts, and which paper the files
          are laid out on. What you leave “From my browser” follows the language your browser asks for.
        </p>
      }
    >
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
    </IntentFormSection>
  )
}

export function DeleteForm({ lastResult }: FormProps) {
  const [form, fields, submitting] = useIntentForm('delete', lastResult)
  return (
    <IntentFormSection
      intent="delete"
      form={form}
      submitting={submitting}
      intro={
        <p>
          This deletes your account and every narrative, version, variant and funder brief in it, at once and for good. Download your data
          first if you want to keep it.
        </p>
      }
    >
      <Field
        meta={fields.password}
        label="Password"
        type="password"
        hint="Enter your password to confirm."
        inputProps={{ autoComplete: 'current-password' }}
      />
    </IntentFormSection>
  )
}

export function CalendarForm({ lastResult, calendarUrl }: FormProps & { calendarUrl: string }) {
  const [form, , submitting] = useIntentForm('calendar', lastResult, {})
  return (
    <IntentFormSection
      intent="calendar"
      form={form}
      submitting={submitting}
      intro={
        <>
          <p>
            Subscribe to this address in your calendar to see the deadline of every application, kept up to date: in Google Calendar, Other
            calendars, From URL; in Outlook, Add calendar, Subscribe from web; in Apple Calendar, File, New Calendar Subscription.
          </p>
          <div className="field">
            <label htmlFor="calendar-url">Calendar address</label>
            <input id="calendar-url" type="text" readOnly value={calendarUrl} aria-describedby="calendar-url-hint" />
            <p className="field-hint" id="calendar-url-hint">
              Anyone with this address can read your deadlines. If it reached someone it should not, renew it: the old address stops
              working.
            </p>
          </div>
          <div className="actions">
            <CopyButton text={calendarUrl} label="Copy address" />
          </div>
        </>
      }
    >
      {null}
    </IntentFormSection>
  )
}

export function RemindersForm({ lastResult, wanted }: FormProps & { wanted: boolean }) {
  const [form, fields, submitting] = useIntentForm('reminders', lastResult, wanted ? { deadlineReminders: 'on' } : {})
  return (
    <IntentFormSection
      intent="reminders"
      form={form}
      submitting={submitting}
      intro={<p>One email at most a day, while an application is not marked Submitted.</p>}
    >
      <CheckboxField meta={fields.deadlineReminders} label="Email me 14 days and 3 days before a deadline" />
    </IntentFormSection>
  )
}
