import { getFormProps } from '@conform-to/react'
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useActionData,
  useLoaderData,
} from 'react-router'
import { AuthCard } from '~/components/auth-card'
import { ActionToast } from '~/components/toaster'
import { ConsentFields, ErrorList, Field, SubmitButton } from '~/components/forms'
import { SignupSchema } from '~/shared/auth-schemas'
import { commitNewCookieSession, getOptionalUser } from '~/server/accounts/auth.server'
import { parseForm } from '~/shared/form'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { formErrorsOf, refusalReply } from '~/server/http/refusal-reply.server'
import { enforceRateLimit } from '~/server/edge/limits.server'
import { dataWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { createUser, SIGNUPS_CLOSED, signupsOpen } from '~/server/accounts/users.server'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { readForm } from '~/server/http/form.server'

export const meta: MetaFunction = () => [{ title: 'Create an account | Impact Narrative Studio' }]

export const headers = rateLimitedPageHeaders

const REGISTRATION_FAILED = 'Registration failed. Please try again.'

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOptionalUser(request)) throw redirect('/dashboard')
  // A 403, like the form's answer.
  if (!(await signupsOpen())) return data({ signupsOpen: false, message: SIGNUPS_CLOSED }, { status: 403 })
  return { signupsOpen: true, message: null }
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request), SignupSchema)
  const hideFields = ['password', 'confirmPassword']
  if (submission.status !== 'success') {
    const firstError = Object.values(submission.error ?? {}).flat()[0] ?? REGISTRATION_FAILED
    return dataWithError(submission.reply({ hideFields }), firstError, { status: 400 })
  }
  try {
    await enforceRateLimit('signup')
    const user = await createUser(submission.value)
    return redirectWithSuccess('/create-narrative', 'Registration successful!', {
      headers: { 'Set-Cookie': await commitNewCookieSession(request, user.id) },
    })
  } catch (error) {
    // The email taken is said on its field; closed sign-ups and a rate limit on the form.
    return refusalReply(error, (refusal) => submission.reply({ ...formErrorsOf(refusal), hideFields }))
  }
}

export default function SignupPage() {
  const { signupsOpen, message } = useLoaderData<typeof loader>()
  return signupsOpen ? <SignupForm /> : <SignupsClosed message={message} />
}

function SignupsClosed({ message }: { message: string | null }) {
  return (
    <AuthCard title="Sign-ups are closed">
      <p>{message}</p>
      <p className="auth-switch">
        Already have an account? <Link to="/login">Sign in to your account</Link>
      </p>
    </AuthCard>
  )
}

function SignupForm() {
  const lastResult = useActionData<typeof action>()
  const [form, fields] = useSchemaForm(SignupSchema, {
    id: 'signup',
    lastResult,
  })
  return (
    <AuthCard title="Create your account" subtitle="Join our platform and create compelling Impact Narratives">
      <ActionToast from={lastResult} />
      <Form method="post" {...getFormProps(form)}>
        <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: 'email', autoFocus: true }} />
        <div className="field-row">
          <Field meta={fields.firstName} label="First name" inputProps={{ autoComplete: 'given-name' }} />
          <Field meta={fields.lastName} label="Last name" inputProps={{ autoComplete: 'family-name' }} />
        </div>
        <Field
          meta={fields.password}
          label="Password"
          type="password"
          hint="At least 8 characters."
          inputProps={{ autoComplete: 'new-password' }}
        />
        <Field meta={fields.confirmPassword} label="Confirm password" type="password" inputProps={{ autoComplete: 'new-password' }} />
        <ConsentFields acceptTerms={fields.acceptTerms} marketingConsent={fields.marketingConsent} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Creating account...">Create Account</SubmitButton>
      </Form>
      <p className="auth-switch">
        Already have an account? <Link to="/login">Sign in to your account</Link>
      </p>
    </AuthCard>
  )
}
