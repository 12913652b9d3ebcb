import { Link, redirect, useLoaderData, type LoaderFunctionArgs, type MetaFunction } from 'react-router'
import { getOptionalUser } from '~/server/accounts/auth.server'
import { signupsOpen } from '~/server/accounts/users.server'

export const meta: MetaFunction = () => [
  { title: 'Impact Narrative Studio' },
  { name: 'description', content: 'Write the impact narrative that funders, donors and boards read.' },
]

// A newcomer learns what this is before being asked to sign in; a signed-in person goes straight to work.
export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOptionalUser(request)) throw redirect('/dashboard')
  return { signupsOpen: await signupsOpen() }
}

export default function HomePage() {
  const { signupsOpen } = useLoaderData<typeof loader>()
  return (
    <div className="auth-page">
      <section className="card landing" aria-labelledby="landing-title">
        <h1 id="landing-title">Impact Narrative Studio</h1>
        <p className="landing-lead">
          Describe your mission, your work and its results, pick a tone, and get a 300 to 400 word impact narrative for funders, donors and
          boards, to edit, fit to a word limit and download as Word or PDF.
        </p>
        <div className="actions">
          <Link to="/login" className="button button-primary">
            Sign in
          </Link>
          {signupsOpen ? (
            <Link to="/signup" className="button button-secondary">
              Create an account
            </Link>
          ) : (
            <p className="field-hint">New accounts are by invitation from this site&rsquo;s administrator.</p>
          )}
        </div>
      </section>
    </div>
  )
}
