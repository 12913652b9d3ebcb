import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Link, useFetcher, useLoaderData, useNavigation } from 'react-router'
import { useEffect, useRef, useState } from 'react'
import { ActionToast } from '~/components/toaster'
import { DeleteDialog, LIST_PATH, NarrativesTable, Pagination, type NarrativeListRow } from '~/components/narrative-list'
import { requireUser } from '~/server/accounts/auth.server'
import { deleteNarrative, listNarratives, type NarrativeWithOwner } from '~/server/narratives/narratives.server'
import { dataWithError, dataWithSuccess } from '~/server/accounts/session.server'
import { toneLabel } from '~/shared/tones'

export const meta: MetaFunction = () => [{ title: 'Narratives | Impact Narrative Studio' }]

const PREVIEW_LENGTH = 30

export { revalidateWhenGone as shouldRevalidate } from '~/shared/revalidate'
const PAGE_MAX = 100_000
const DELETED = 'Narrative deleted successfully!'
const DELETE_FAILED = 'Failed to delete narrative. Please try again.'

export async function loader({ request, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const page = parsePage(url.searchParams.get('page'))
  let list = await listNarratives({ viewer: user, page })
  // A page beyond the last one (a bookmark, or the last row just deleted) shows the last page.
  if (page > list.pagination.pages) list = await listNarratives({ viewer: user, page: list.pagination.pages })
  return {
    showOwner: user.isAdmin,
    narratives: list.data.map((narrative) => toRow(narrative, user.isAdmin)),
    pagination: list.pagination,
  }
}

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const formData = await request.formData()
  if (formData.get('intent') !== 'delete') throw new Response('Unknown intent', { status: 400 })
  const deleted = await deleteNarrative({ id: String(formData.get('id') ?? ''), viewer: user })
  if (!deleted) return dataWithError({ ok: false }, DELETE_FAILED, { status: 404 })
  return dataWithSuccess({ ok: true }, DELETED)
}

function parsePage(value: string | null) {
  return value && /^\d{1,9}$/.test(value) ? Math.min(Math.max(Number(value), 1), PAGE_MAX) : 1
}

/** Only what the table shows: the owner only for an admin, the text only as its preview. */
function toRow(narrative: NarrativeWithOwner, withOwner: boolean): NarrativeListRow {
  // One line in a table cell: line breaks and runs of spaces read as single spaces.
  const characters = Array.from(
    narrative.generatedNarrative
      .slice(0, PREVIEW_LENGTH * 4)
      .replace(/\s+/g, ' ')
      .trim(),
  )
  return {
    id: narrative.id,
    company: narrative.company,
    preview: characters.slice(0, PREVIEW_LENGTH).join('') + (characters.length > PREVIEW_LENGTH ? '...' : ''),
    tone: toneLabel(narrative.tone),
    status: narrative.status,
    createdAt: narrative.createdAt,
    owner: withOwner ? { name: `${narrative.user.firstName} ${narrative.user.lastName}`.trim(), email: narrative.user.email } : null,
  }
}

export default function NarrativesPage() {
  const { narratives, pagination, showOwner } = useLoaderData<typeof loader>()
  const [deleting, setDeleting] = useState<NarrativeListRow | null>(null)
  const deleteFetcher = useFetcher<typeof action>({ key: 'delete-narrative' })
  const pendingId = deleteFetcher.formData?.get('id')
  const rows = narratives.filter((narrative) => narrative.id !== pendingId)
  // The deleted row took the focused Delete link with it: the page's heading takes focus.
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (pendingId) headingRef.current?.focus()
  }, [pendingId])
  return (
    <div className="page">
      <ActionToast from={deleteFetcher.data} />
      <header className="page-header">
        <h1 ref={headingRef} tabIndex={-1}>
          Narratives
        </h1>
        <p className="page-subtitle">{showOwner ? 'Admin area: narratives from every user' : 'Your saved narratives'}</p>
        <LoadingIndicator />
      </header>
      {pagination.total === 0 ? (
        <EmptyState />
      ) : (
        <>
          <NarrativesTable rows={rows} showOwner={showOwner} onDelete={setDeleting} />
          <Pagination page={pagination.page} pages={pagination.pages} />
        </>
      )}
      <DeleteDialog
        narrative={deleting}
        onClose={() => setDeleting(null)}
        onConfirm={(id) => deleteFetcher.submit({ intent: 'delete', id }, { method: 'POST', action: `${LIST_PATH}?index` })}
      />
    </div>
  )
}

function LoadingIndicator() {
  const navigation = useNavigation()
  if (navigation.state !== 'loading' || navigation.location.pathname !== LIST_PATH) return null
  return (
    <div className="actions" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading...</span>
    </div>
  )
}

function EmptyState() {
  return (
    <div className="empty-state">
      <h2>No narratives yet</h2>
      <p>There are no narratives yet. Generated narratives are saved here.</p>
      <Link to="/dashboard" className="button button-primary">
        Create your first narrative
      </Link>
    </div>
  )
}
