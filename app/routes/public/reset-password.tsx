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
import { ErrorList, Field, SubmitButton } from '~/components/forms'
import { ResetPasswordSchema } from '~/shared/auth-schemas'
import { parseForm } from '~/shared/form'
import { isResetTokenValid, resetPassword } from '~/server/accounts/password-reset.server'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { unlessRefused } from '~/server/http/refusal-reply.server'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { redirectWithSuccess } from '~/server/http/toast.server'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { readForm } from '~/server/http/form.server'

export const meta: MetaFunction = () => [{ title: 'Reset password | Impact Narrative Studio' }]

export const headers = rateLimitedPageHeaders

export async function loader({ url }: LoaderFunctionArgs) {
  const token = url.searchParams.get('token') ?? ''
  const valid = token.length > 0 && token.length <= 200 && (await isResetTokenValid(token))
  return data({ token: valid ? token : null }, { status: valid ? 200 : 400 })
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request), ResetPasswordSchema)
  const hideFields = ['newPassword', 'confirmPassword']
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }), invalidToken: false }, { status: 400 })
  const { refused } = await unlessRefused(
    () => enforceRateLimit('reset'),
    (message) => ({ result: submission.reply({ formErrors: [message], hideFields }), invalidToken: false }),
  )
  if (refused) return refused
  if (!(await resetPassword(submission.value.token, submission.value.newPassword))) {
    return data({ result: submission.reply({ hideFields }), invalidToken: true }, { status: 400 })
  }
  return redirectWithSuccess('/login', 'Password reset successfully!')
}

export default function ResetPasswordPage() {
  const { token } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(ResetPasswordSchema, {
    id: 'reset-password',
    lastResult: actionData?.result,
  })
  if (!token || actionData?.invalidToken) return <InvalidLink />
  return (
    <AuthCard title="Reset your password" subtitle="Choose a new password of at least 8 characters.">
      <ActionToast from={actionData} />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="token" value={token} />
        <Field
          meta={fields.newPassword}
          label="New Password"
          type="password"
          inputProps={{ autoComplete: 'new-password', autoFocus: true }}
        />
        <Field meta={fields.confirmPassword} label="Confirm Password" type="password" inputProps={{ autoComplete: 'new-password' }} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Resetting...">Reset Password</SubmitButton>
      </Form>
      <p className="auth-switch">
        <Link to="/login">Back to login</Link>
      </p>
    </AuthCard>
  )
}

function InvalidLink() {
  return (
    <AuthCard title="Invalid Reset Link">
      <p>This password reset link has expired or is invalid.</p>
      <p>
        <Link to="/forgot-password" className="button button-primary button-block">
          Request a new password reset link
        </Link>
      </p>
      <p className="auth-switch">
        <Link to="/login">Back to login</Link>
      </p>
    </AuthCard>
  )
}
