import { fullName } from '~/shared/user-summary'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Form, Link, useFetcher, useLoaderData, useNavigation } from 'react-router'
import { useEffect, useRef, useState } from 'react'
import { ActionToast } from '~/components/toaster'
import { DeleteDialog, LIST_PATH, NarrativesTable, Pagination, type NarrativeListRow } from '~/components/narrative-list'
import { requireUser } from '~/server/accounts/auth.server'
import { deleteNarrative, listNarratives, type NarrativeWithOwner } from '~/server/narratives/narratives.server'
import { DUE_LABELS, DUE_WINDOWS, narrativeFiltersOfPage, narrativeListHref, type NarrativeFilters, parsePage } from '~/shared/list-query'
import { dataWithError, dataWithSuccess } from '~/server/http/toast.server'
import { listFunderChoices } from '~/server/funders/funders.server'
import { TONE_DETAILS, TONES, toneLabel } from '~/shared/tones'
import { STAGE_LABELS, STAGES, stageLabel } from '~/shared/stages'
import { SEARCH_QUERY_MAX } from '~/shared/narrative-schema'
import { intentOf } from '~/shared/form'
import { readForm } from '~/server/http/form.server'

export const meta: MetaFunction = () => [{ title: 'Narratives | Impact Narrative Studio' }]

const PREVIEW_LENGTH = 30

export { revalidateWhenGone as shouldRevalidate } from '~/shared/revalidate'
const DELETED = 'Narrative deleted successfully!'
const DELETE_FAILED = 'Failed to delete narrative. Please try again.'

export async function loader({ request, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const page = parsePage(url.searchParams.get('page'))
  const filters = narrativeFiltersOfPage(url.searchParams)
  const [first, funders] = await Promise.all([listNarratives({ viewer: user, page, filters }), listFunderChoices(user)])
  let list = first
  // A page beyond the last one (a bookmark, or the last row just deleted) shows the last page.
  if (page > list.pagination.pages) list = await listNarratives({ viewer: user, page: list.pagination.pages, filters })
  return {
    showOwner: user.isAdmin,
    narratives: list.data.map((narrative) => toRow(narrative, user.isAdmin)),
    pagination: list.pagination,
    filters,
    funders: funders.map(({ id, name }) => ({ id, name })),
  }
}

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const formData = await readForm(request)
  intentOf(formData, ['delete'])
  const deleted = await deleteNarrative({ id: String(formData.get('id') ?? ''), viewer: user })
  if (!deleted) return dataWithError({ ok: false }, DELETE_FAILED, { status: 404 })
  return dataWithSuccess({ ok: true }, DELETED)
}

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
    funder: narrative.funderName,
    deadline: narrative.deadline,
    stage: stageLabel(narrative.stage),
    owner: withOwner ? { name: fullName(narrative.user), email: narrative.user.email } : null,
  }
}

export default function NarrativesPage() {
  const { narratives, pagination, showOwner, filters, funders } = useLoaderData<typeof loader>()
  const filtered = Object.keys(filters).length > 0
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
      <ListFilters filters={filters} funders={funders} />
      {pagination.total === 0 && !filtered ? (
        <EmptyState />
      ) : pagination.total === 0 ? (
        <p role="status">No narratives match. Change the search or the filters, or clear them.</p>
      ) : (
        <>
          {pagination.searched ? (
            <p className="field-hint">
              The search stopped after the newest {pagination.searched.toLocaleString('en-US')} narratives. Narrow it by funder, stage, tone
              or dates to look further back.
            </p>
          ) : null}
          <p className="visually-hidden" role="status">
            {filtered ? `${pagination.total} ${pagination.total === 1 ? 'narrative matches' : 'narratives match'}.` : ''}
          </p>
          <NarrativesTable
            rows={rows}
            showOwner={showOwner}
            onDelete={setDeleting}
            caption={filters.sort === 'deadline' ? 'Saved narratives, upcoming deadlines first' : undefined}
          />
          <Pagination page={pagination.page} pages={pagination.pages} pageHref={(page) => narrativeListHref(LIST_PATH, filters, page)} />
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

/** Search and filters: a GET form, so a filtered list has its own address and works without JavaScript. */
function ListFilters({ filters, funders }: { filters: NarrativeFilters; funders: { id: string; name: string }[] }) {
  return (
    <Form method="get" action={LIST_PATH} className="list-filters card" aria-label="Search and filter narratives">
      <div className="field list-filters-wide">
        <label htmlFor="filter-q">Search</label>
        <input
          id="filter-q"
          name="q"
          type="search"
          defaultValue={filters.q ?? ''}
          placeholder="Company, funder or text"
          maxLength={SEARCH_QUERY_MAX}
        />
      </div>
      <FilterSelect
        name="funder"
        label="Funder"
        any="Any funder"
        value={filters.funderId}
        options={funders.map(({ id, name }) => [id, name])}
      />
      <FilterSelect
        name="stage"
        label="Stage"
        any="Any stage"
        value={filters.stage}
        options={STAGES.map((stage) => [stage, STAGE_LABELS[stage]])}
      />
      <FilterSelect
        name="due"
        label="Deadline"
        any="Any deadline"
        value={filters.due}
        options={DUE_WINDOWS.map((due) => [due, DUE_LABELS[due]])}
      />
      <FilterSelect
        name="tone"
        label="Tone"
        any="Any tone"
        value={filters.tone}
        options={TONES.map((tone) => [tone, TONE_DETAILS[tone].label])}
      />
      <div className="field">
        <label htmlFor="filter-from">Written from</label>
        <input id="filter-from" name="from" type="date" defaultValue={filters.from ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="filter-to">Written to</label>
        <input id="filter-to" name="to" type="date" defaultValue={filters.to ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="filter-sort">Order</label>
        <select id="filter-sort" name="sort" defaultValue={filters.sort ?? ''}>
          <option value="">Newest first</option>
          <option value="deadline">Upcoming deadlines first</option>
        </select>
      </div>
      <div className="actions list-filters-wide">
        <button type="submit" className="button button-primary">
          Search
        </button>
        <Link to={LIST_PATH} className="button button-secondary">
          Clear
        </Link>
      </div>
    </Form>
  )
}

/** A filter's select, its first option the list unfiltered; a GET form sends it by its `name`. */
function FilterSelect({
  name,
  label,
  any,
  value,
  options,
}: {
  name: string
  label: string
  any: string
  value: string | undefined
  options: [value: string, label: string][]
}) {
  return (
    <div className="field">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''}>
        <option value="">{any}</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
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
