import type { SubmissionResult } from '@conform-to/react'
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, useActionData, useLoaderData } from 'react-router'
import { CalendarForm, DeleteForm, EmailForm, LocaleForm, NameForm, PasswordForm, RemindersForm } from '~/components/account-forms'
import { ActionToast } from '~/components/toaster'
import { type AuthUser, endCookieSession, getCookieSessionToken, requireUser } from '~/server/accounts/auth.server'
import { ACCOUNT_DELETED, changePassword, deleteAccount, renameUser, saveLocaleChoices } from '~/server/accounts/account.server'
import { EMAIL_CHANGE_TTL_HOURS, emailLinkSent, requestEmailChange } from '~/server/accounts/email-change.server'
import { redirectWithSuccess } from '~/server/http/toast.server'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { formErrorsOf, refusalReply } from '~/server/http/refusal-reply.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { ACCOUNT_FORMS, ACCOUNT_INTENTS, type AccountIntent } from '~/shared/account-forms'
import { NO_CHOICES } from '~/shared/locale'
import { intentOf, parseForm } from '~/shared/form'
import { readForm } from '~/server/http/form.server'
import { calendarUrlFor, renewCalendarUrl } from '~/server/narratives/calendar.server'
import { chooseReminders, remindersWanted } from '~/server/accounts/deadline-reminders.server'

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
    calendarUrl: await calendarUrlFor(user.id),
    remindersWanted: await remindersWanted(user.id),
    locale: {
      choices: user.locale,
      // What a choice left unmade comes to: the browser's variety, and the rest as the chosen variety (or the browser) has them.
      browser: localeSettings(request, NO_CHOICES),
      unchosen: localeSettings(request, { ...NO_CHOICES, variety: user.locale.variety }),
    },
  }
}

type Reply = { intent: AccountIntent; result: SubmissionResult<string[]> }

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const formData = await readForm(request)
  const intent = intentOf(formData, ACCOUNT_INTENTS)
  const { schema, hideFields } = ACCOUNT_FORMS[intent]
  const submission = parseForm(formData, schema)
  if (submission.status !== 'success') return data<Reply>({ intent, result: submission.reply({ hideFields }) }, { status: 400 })
  try {
    return await apply(intent, user, submission.value, request)
  } catch (error) {
    // A limit of the account is said on its form alone (on its field, where it names one); a rate limit in a toast too.
    return refusalReply<Reply>(
      error,
      (refusal) => ({ intent, result: submission.reply({ ...formErrorsOf(refusal), hideFields }) }),
      (refusal) => (refusal.status === 429 ? refusal.message : null),
    )
  }
}

// The submission's value, typed by its intent's schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function apply(intent: AccountIntent, user: AuthUser, value: any, request: Request) {
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
    case 'calendar':
      await renewCalendarUrl(user.id)
      return redirectWithSuccess(ACCOUNT_PATH, 'Your calendar has a new address. Subscribe to it again; the old one no longer works.')
    case 'reminders':
      await chooseReminders(user.id, value.deadlineReminders === true)
      return redirectWithSuccess(
        ACCOUNT_PATH,
        value.deadlineReminders ? 'Deadline reminders are on.' : 'Deadline reminders are off. Your calendar still shows every deadline.',
      )
    case 'delete':
      await deleteAccount(user, value.password)
      return redirectWithSuccess('/login', ACCOUNT_DELETED, { headers: { 'Set-Cookie': await endCookieSession(request) } })
  }
}

export default function AccountPage() {
  const account = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const lastResult = (intent: AccountIntent) => (reply?.intent === intent ? reply.result : undefined)
  return (
    <div className="page narrow">
      <ActionToast from={reply} />
      <header className="page-header">
        <h1>Account</h1>
        <p className="page-subtitle">Your name, email and password, how your pages and files are written, your calendar, and your data.</p>
      </header>
      <NameForm lastResult={lastResult('name')} defaultValue={{ firstName: account.firstName, lastName: account.lastName }} />
      <EmailForm lastResult={lastResult('email')} email={account.email} linkHours={account.emailLinkHours} />
      <PasswordForm lastResult={lastResult('password')} />
      <LocaleForm lastResult={lastResult('locale')} {...account.locale} />
      <CalendarForm lastResult={lastResult('calendar')} calendarUrl={account.calendarUrl} />
      <RemindersForm lastResult={lastResult('reminders')} wanted={account.remindersWanted} />
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
