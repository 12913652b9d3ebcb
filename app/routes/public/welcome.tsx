import { getFormProps } from '@conform-to/react'
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from 'react-router'
import { AuthCard } from '~/components/auth-card'
import { ActionToast } from '~/components/toaster'
import { ConsentFields, ErrorList, Field, SubmitButton } from '~/components/forms'
import { AcceptInvitationSchema } from '~/shared/auth-schemas'
import { parseForm } from '~/shared/form'
import { commitNewCookieSession } from '~/server/accounts/auth.server'
import { acceptInvitation, findInvitation } from '~/server/accounts/invitations.server'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { unlessRefused } from '~/server/http/refusal-reply.server'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { redirectWithSuccess } from '~/server/http/toast.server'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { readForm } from '~/server/http/form.server'

export const meta: MetaFunction = () => [{ title: 'Welcome | Impact Narrative Studio' }]

export const headers = rateLimitedPageHeaders

export async function loader({ url }: LoaderFunctionArgs) {
  const token = url.searchParams.get('token') ?? ''
  const invitee = token.length > 0 && token.length <= 200 ? await findInvitation(token) : null
  if (!invitee) return data({ token: null, email: null, firstName: null }, { status: 400 })
  return { token, email: invitee.email, firstName: invitee.firstName }
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request), AcceptInvitationSchema)
  const hideFields = ['newPassword', 'confirmPassword']
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }), invalidToken: false }, { status: 400 })
  // Redeeming a link is guessing a token, like a reset: the same limit.
  const { refused } = await unlessRefused(
    () => enforceRateLimit('reset'),
    (message) => ({ result: submission.reply({ formErrors: [message], hideFields }), invalidToken: false }),
  )
  if (refused) return refused
  const { token, newPassword, marketingConsent } = submission.value
  const userId = await acceptInvitation(token, { password: newPassword, marketingConsent })
  if (!userId) return data({ result: submission.reply({ hideFields }), invalidToken: true }, { status: 400 })
  return redirectWithSuccess('/create-narrative', 'Welcome! Your password is set.', {
    headers: { 'Set-Cookie': await commitNewCookieSession(request, userId) },
  })
}

export default function WelcomePage() {
  const { token, email, firstName } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(AcceptInvitationSchema, {
    id: 'welcome',
    lastResult: actionData?.result,
  })
  if (!token || actionData?.invalidToken) return <InvalidInvitation />
  return (
    <AuthCard title={`Welcome, ${firstName}!`} subtitle="Set your password to finish creating your account.">
      <ActionToast from={actionData} />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="token" value={token} />
        <p>
          Your account: <strong>{email}</strong>
        </p>
        <Field
          meta={fields.newPassword}
          label="Password"
          type="password"
          hint="At least 8 characters."
          inputProps={{ autoComplete: 'new-password', autoFocus: true }}
        />
        <Field meta={fields.confirmPassword} label="Confirm password" type="password" inputProps={{ autoComplete: 'new-password' }} />
        <ConsentFields acceptTerms={fields.acceptTerms} marketingConsent={fields.marketingConsent} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Setting your password...">Set password and continue</SubmitButton>
      </Form>
    </AuthCard>
  )
}

function InvalidInvitation() {
  return (
    <AuthCard title="Invalid Invitation Link">
      <p>This invitation link has expired, has already been used, or is invalid.</p>
      <p>Ask your administrator to send you a new invitation. If you have already set your password, sign in.</p>
      <p className="auth-switch">
        <Link to="/login">Go to sign in</Link>
      </p>
    </AuthCard>
  )
}
