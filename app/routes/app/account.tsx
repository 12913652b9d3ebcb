import { getFormProps, type SubmissionResult } from '@conform-to/react'
import type { ZodTypeAny } from 'zod'
import { useEffect, useMemo, useRef } from 'react'
import {
  type ActionFunctionArgs,
  data,
  Form,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
  useNavigation,
} from 'react-router'
import { ErrorList, Field, SelectField, SubmitButton } from '~/components/forms'
import { ActionToast } from '~/components/toaster'
import { type AuthUser, endCookieSession, getCookieSessionToken, requireUser } from '~/server/accounts/auth.server'
import {
  ACCOUNT_DELETED,
  AccountError,
  changePassword,
  deleteAccount,
  renameUser,
  saveLocaleChoices,
} from '~/server/accounts/account.server'
import { EMAIL_CHANGE_TTL_HOURS, emailLinkSent, requestEmailChange } from '~/server/accounts/email-change.server'
import { redirectWithSuccess } from '~/server/http/toast.server'
import { RateLimitError } from '~/server/edge/rate-limit.server'
import { rateLimitedPage, rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { ChangePasswordSchema, DeleteAccountSchema, EmailChangeSchema, LocaleChoicesSchema, ProfileNameSchema } from '~/shared/auth-schemas'
import {
  CURRENCIES,
  CURRENCY_LABELS,
  formatDate,
  NO_CHOICES,
  PAPER_LABELS,
  PAPERS,
  VARIETIES,
  VARIETY_LABELS,
  type DateFormat,
  type LocaleChoices,
  type LocaleSettings,
} from '~/shared/locale'
import { parseForm } from '~/shared/form'
import { useSchemaForm } from '~/hooks/use-schema-form'

// Every form is a plain POST with its intent, so the page works without JavaScript (docs/decisions/022).

export const meta: MetaFunction = () => [{ title: 'Account | Impact Narrative Studio' }]

export const headers = rateLimitedPageHeaders

const ACCOUNT_PATH = '/account'
const EXPORT_PATH = '/resources/account/export'

export async function loader({ request, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    emailLinkHours: EMAIL_CHANGE_TTL_HOURS,
    locale: {
      choices: user.locale,
      // What a choice left unmade comes to: the browser's variety, and the rest as the chosen variety (or the browser) has them.
      browser: localeSettings(request, NO_CHOICES),
      unchosen: localeSettings(request, { ...NO_CHOICES, variety: user.locale.variety }),
    },
  }
}

const FORMS = {
  name: { schema: ProfileNameSchema, hideFields: [] },
  email: { schema: EmailChangeSchema, hideFields: ['currentPassword'] },
  password: { schema: ChangePasswordSchema, hideFields: ['currentPassword', 'newPassword', 'confirmPassword'] },
  locale: { schema: LocaleChoicesSchema, hideFields: [] },
  delete: { schema: DeleteAccountSchema, hideFields: ['password'] },
} satisfies Record<string, { schema: ZodTypeAny; hideFields: string[] }>

type Intent = keyof typeof FORMS
type Reply = { intent: Intent; result: SubmissionResult<string[]> }

const isIntent = (value: unknown): value is Intent => typeof value === 'string' && Object.hasOwn(FORMS, value)

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (!isIntent(intent)) throw new Response('Unknown intent', { status: 400 })
  const { schema, hideFields } = FORMS[intent]
  const submission = parseForm(formData, schema)
  if (submission.status !== 'success') return data<Reply>({ intent, result: submission.reply({ hideFields }) }, { status: 400 })
  try {
    return await apply(intent, user, submission.value, request)
  } catch (error) {
    if (error instanceof RateLimitError)
      return rateLimitedPage<Reply>({ intent, result: submission.reply({ formErrors: [error.message], hideFields }) }, error)
    if (!(error instanceof AccountError)) throw error
    const errors = error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] }
    return data<Reply>({ intent, result: submission.reply({ ...errors, hideFields }) }, { status: error.status })
  }
}

// The submission's value, typed by its intent's schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function apply(intent: Intent, user: AuthUser, value: any, request: Request) {
  switch (intent) {
    case 'name':
      await renameUser(user, value)
      return redirectWithSuccess(ACCOUNT_PATH, 'Your name is saved.')
    case 'email':
      await requestEmailChange(user, value)
      return redirectWithSuccess(ACCOUNT_PATH, emailLinkSent(value.email))
    case 'locale':
      await saveLocaleChoices(user, value)
      return redirectWithSuccess(ACCOUNT_PATH, 'Your language, dates, currency and paper are saved.')
    case 'password': {
      const keepSession = (await getCookieSessionToken(request))!
      await changePassword(user, { currentPassword: value.currentPassword, newPassword: value.newPassword, keepSession })
      return redirectWithSuccess(ACCOUNT_PATH, 'Your password is changed. Every other device is signed out.')
    }
    case 'delete':
      await deleteAccount(user, value.password)
      return redirectWithSuccess('/login', ACCOUNT_DELETED, { headers: { 'Set-Cookie': await endCookieSession(request) } })
  }
}

export default function AccountPage() {
  const account = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const lastResult = (intent: Intent) => (reply?.intent === intent ? reply.result : undefined)
  return (
    <div className="page narrow">
      <ActionToast from={reply} />
      <header className="page-header">
        <h1>Account</h1>
        <p className="page-subtitle">Your name, email and password, how your pages and files are written, and your data.</p>
      </header>
      <NameForm lastResult={lastResult('name')} defaultValue={{ firstName: account.firstName, lastName: account.lastName }} />
      <EmailForm lastResult={lastResult('email')} email={account.email} linkHours={account.emailLinkHours} />
      <PasswordForm lastResult={lastResult('password')} />
      <LocaleForm lastResult={lastResult('locale')} {...account.locale} />
      <section className="form-section" aria-labelledby="export-title">
        <h2 id="export-title">Your data</h2>
        <p>Download your profile, every narrative you keep with its versions and variants, and your funder briefs, as one JSON file.</p>
        <p>
          <a href={EXPORT_PATH} className="button button-secondary" download>
            Download my data
          </a>
        </p>
      </section>
      <DeleteForm lastResult={lastResult('delete')} />
    </div>
  )
}

type FormProps = { lastResult?: SubmissionResult<string[]> }

/**
 * A form without a default value (the ones with passwords) is emptied once its submission has succeeded:
 * the action redirects back here, so the page stays mounted and would otherwise keep what was typed.
 */
function useIntentForm(intent: Intent, lastResult: SubmissionResult<string[]> | undefined, defaultValue?: Record<string, string>) {
  const { schema } = FORMS[intent]
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

function NameForm({ lastResult, defaultValue }: FormProps & { defaultValue: { firstName: string; lastName: string } }) {
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

function EmailForm({ lastResult, email, linkHours }: FormProps & { email: string; linkHours: number }) {
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

function PasswordForm({ lastResult }: FormProps) {
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
function LocaleForm({
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

function DeleteForm({ lastResult }: FormProps) {
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
