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
  useSearchParams,
} from 'react-router'
import { AuthCard } from '~/components/auth-card'
import { ActionToast } from '~/components/toaster'
import { ErrorList, Field, SubmitButton } from '~/components/forms'
import { LoginSchema } from '~/shared/auth-schemas'
import { authenticator, commitNewCookieSession, getOptionalUser, safeRedirect } from '~/server/accounts/auth.server'
import { parseForm } from '~/shared/form'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { refusalReply } from '~/server/http/refusal-reply.server'
import { redirectWithSuccess } from '~/server/http/toast.server'
import { signupsOpen } from '~/server/accounts/users.server'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { readForm } from '~/server/http/form.server'

export const headers = rateLimitedPageHeaders

export const meta: MetaFunction = () => [{ title: 'Sign in | Impact Narrative Studio' }]

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOptionalUser(request)) throw redirect('/dashboard')
  return { signupsOpen: await signupsOpen() }
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request.clone()), LoginSchema)
  if (submission.status !== 'success') {
    return data(submission.reply({ hideFields: ['password'] }), { status: 400 })
  }
  try {
    const user = await authenticator.authenticate('form', request)
    return redirectWithSuccess(safeRedirect(submission.value.redirectTo), 'Welcome! Login Successfully', {
      headers: { 'Set-Cookie': await commitNewCookieSession(request, user.id) },
    })
  } catch (error) {
    return refusalReply(error, ({ message }) => submission.reply({ formErrors: [message], hideFields: ['password'] }))
  }
}

export default function LoginPage() {
  const { signupsOpen } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const [form, fields] = useSchemaForm(LoginSchema, {
    id: 'login',
    lastResult,
  })
  return (
    <AuthCard title="Sign in" subtitle="Access your dashboard and manage your profile">
      <ActionToast from={lastResult} />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: 'email', autoFocus: true }} />
        <Field meta={fields.password} label="Password" type="password" inputProps={{ autoComplete: 'current-password' }} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <p className="form-aside">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <SubmitButton pendingText="Signing in...">Sign in</SubmitButton>
      </Form>
      {signupsOpen ? (
        <p className="auth-switch">
          <Link to="/signup">Create an account</Link>
        </p>
      ) : null}
    </AuthCard>
  )
}
