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
import { SubmitButton } from '~/components/forms'
import { requireUser } from '~/server/accounts/auth.server'
import { confirmEmailChange, EMAIL_LINK_INVALID, EMAIL_TAKEN_NOW, findEmailChange } from '~/server/accounts/email-change.server'
import { redirectWithSuccess } from '~/server/http/toast.server'
import { EmailConfirmSchema } from '~/shared/auth-schemas'
import { readForm } from '~/server/http/form.server'

// Opening the mailed link only asks to confirm, so a mail scanner that fetches it changes nothing
// (decision 022).

export const meta: MetaFunction = () => [{ title: 'Confirm your new email | Impact Narrative Studio' }]

export async function loader({ request, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const token = url.searchParams.get('token') ?? ''
  const newEmail = token.length > 0 && token.length <= 200 ? await findEmailChange(user, token) : null
  return data({ token: newEmail ? token : null, newEmail, invalid: EMAIL_LINK_INVALID }, { status: newEmail ? 200 : 400 })
}

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const parsed = EmailConfirmSchema.safeParse(Object.fromEntries(await readForm(request)))
  const outcome = parsed.success ? await confirmEmailChange(user, parsed.data.token) : ({ status: 'invalid' } as const)
  if (outcome.status === 'changed') return redirectWithSuccess('/account', `Your email is now ${outcome.email}.`)
  return data(
    { message: outcome.status === 'taken' ? EMAIL_TAKEN_NOW : EMAIL_LINK_INVALID },
    { status: outcome.status === 'taken' ? 409 : 400 },
  )
}

export default function ConfirmEmailPage() {
  const { token, newEmail, invalid } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  if (!token || refused) {
    return (
      <AuthCard title="Email not changed">
        <p role="alert">{refused?.message ?? invalid}</p>
        <p>
          <Link to="/account" className="button button-primary button-block">
            Back to your account
          </Link>
        </p>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Confirm your new email" subtitle="Sign in with this address from now on.">
      <p>
        Make <strong>{newEmail}</strong> the email of your account?
      </p>
      <Form method="post">
        <input type="hidden" name="token" value={token} />
        <SubmitButton pendingText="Confirming...">Confirm new email</SubmitButton>
      </Form>
      <p className="auth-switch">
        <Link to="/account">Back to your account</Link>
      </p>
    </AuthCard>
  )
}
