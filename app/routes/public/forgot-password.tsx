import { getFormProps } from '@conform-to/react'
import { type ActionFunctionArgs, data, Form, Link, type MetaFunction, useActionData } from 'react-router'
import { useEffect, useState } from 'react'
import { AuthCard } from '~/components/auth-card'
import { ActionToast } from '~/components/toaster'
import { ErrorList, Field, SubmitButton } from '~/components/forms'
import { ForgotPasswordSchema } from '~/shared/auth-schemas'
import { parseForm } from '~/shared/form'
import { requestPasswordReset } from '~/server/accounts/password-reset.server'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { unlessRefused } from '~/server/http/refusal-reply.server'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { dataWithSuccess } from '~/server/http/toast.server'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { readForm } from '~/server/http/form.server'

export const headers = rateLimitedPageHeaders

export const meta: MetaFunction = () => [{ title: 'Forgot password | Impact Narrative Studio' }]

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request), ForgotPasswordSchema)
  if (submission.status !== 'success') return data({ result: submission.reply(), sent: false }, { status: 400 })
  const { refused } = await unlessRefused(
    () => enforceRateLimit('forgot', submission.value.email),
    (message) => ({ result: submission.reply({ formErrors: [message] }), sent: false }),
  )
  if (refused) return refused
  requestPasswordReset(submission.value.email)
  return dataWithSuccess({ result: submission.reply({ resetForm: true }), sent: true }, 'Reset link sent! Please check your email.')
}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>()
  const [showForm, setShowForm] = useState(!actionData?.sent)
  useEffect(() => setShowForm(!actionData?.sent), [actionData])
  const [form, fields] = useSchemaForm(ForgotPasswordSchema, {
    id: 'forgot-password',
    lastResult: actionData?.result,
  })
  return (
    <>
      <ActionToast from={actionData} />
      {showForm ? (
        <AuthCard title="Forgot your password?" subtitle="Enter your email and we will send you a link to reset your password.">
          <Form method="post" {...getFormProps(form)}>
            <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: 'email', autoFocus: true }} />
            <ErrorList id={form.errorId} errors={form.errors} />
            <SubmitButton pendingText="Sending...">Send reset link</SubmitButton>
          </Form>
          <p className="auth-switch">
            <Link to="/login">Back to login</Link>
          </p>
        </AuthCard>
      ) : (
        <SentNotice onReset={() => setShowForm(true)} />
      )}
    </>
  )
}

function SentNotice({ onReset }: { onReset: () => void }) {
  return (
    <AuthCard title="Email sent successfully!">
      <p role="status">Check your email for the reset link. The link will expire in 30 minutes.</p>
      {/* A link to the same page returns to the form without JavaScript; with it, no reload. */}
      <p>
        <Link to="/forgot-password" className="button button-secondary button-block" onClick={onReset} reloadDocument={false}>
          Send to a different email
        </Link>
      </p>
      <p className="auth-switch">
        <Link to="/login">Back to login</Link>
      </p>
    </AuthCard>
  )
}
