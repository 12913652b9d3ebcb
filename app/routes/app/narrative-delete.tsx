import { fullName } from '~/shared/user-summary'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Form, Link, useLoaderData } from 'react-router'
import { SubmitButton } from '~/components/forms'
import { NarrativeIdentity } from '~/components/narrative-list'
import { requireUser } from '~/server/accounts/auth.server'
import { deleteNarrative, getNarrative } from '~/server/narratives/narratives.server'
import { redirectWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { toneLabel } from '~/shared/tones'

// A real page, so deleting works without JavaScript.

export const meta: MetaFunction = () => [{ title: 'Confirm Delete | Impact Narrative Studio' }]

const LIST_PATH = '/admin/narratives'
const OPENING_WORDS = 20

/** The text's first words, on one line: enough to tell two narratives for one organisation apart. */
function openingWords(text: string) {
  const words = text
    .slice(0, OPENING_WORDS * 40)
    .split(/\s+/)
    .filter(Boolean)
  return words.slice(0, OPENING_WORDS).join(' ') + (words.length > OPENING_WORDS ? '…' : '')
}

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  return {
    narrative: {
      id: narrative.id,
      company: narrative.company,
      tone: toneLabel(narrative.tone),
      createdAt: narrative.createdAt,
      funder: narrative.funderName,
      opening: openingWords(narrative.generatedNarrative),
      owner: narrative.userId === user.id ? null : { name: fullName(narrative.user) || narrative.user.email },
      generating: narrative.status === 'generating',
    },
  }
}

export async function action({ request, params, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  if (!(await getNarrative({ id, viewer: user }))) throw new Response('Not found', { status: 404 })
  // Still being written: it can be deleted once finished.
  if (!(await deleteNarrative({ id, viewer: user }))) return redirectWithError(LIST_PATH, 'Failed to delete narrative. Please try again.')
  return redirectWithSuccess(LIST_PATH, 'Narrative deleted successfully!')
}

export default function ConfirmDeletePage() {
  const { narrative } = useLoaderData<typeof loader>()
  return (
    <div className="page">
      <section className="card narrow" aria-labelledby="delete-title" aria-describedby="delete-description">
        <h1 id="delete-title">Confirm Delete</h1>
        <p id="delete-description">Are you sure you want to delete this narrative? This action cannot be undone.</p>
        <NarrativeIdentity narrative={narrative} />
        {narrative.generating ? (
          <p className="field-hint">This narrative is still being written; it can be deleted once it has finished.</p>
        ) : null}
        <Form method="post" className="actions">
          <Link to={LIST_PATH} className="button button-secondary">
            Cancel
          </Link>
          <SubmitButton pendingText="Deleting..." className="button button-danger" disabled={narrative.generating}>
            Delete
          </SubmitButton>
        </Form>
      </section>
    </div>
  )
}

export { NarrativeErrorBoundary as ErrorBoundary } from '~/components/narrative-error'
