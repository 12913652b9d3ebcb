import { createElement, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { createRoutesStub, Outlet, useLoaderData } from 'react-router'
import { prisma } from '~/server/platform/db.server'
import { resetEnvForTests } from '~/server/platform/env.server'
import { loader as rootLoader } from '~/root'
import { action as accountAction, loader as accountLoader, default as AccountPage } from '~/routes/app/account'
import { loader as fundersLoader, default as FundersPage } from '~/routes/app/funders'
import { loader as funderLoader } from '~/routes/app/funder'
import { action as loginAction } from '~/routes/public/login'
import { action as createApi } from '~/routes/api/narratives'
import { loader as apiDownload } from '~/routes/api/narrative-download'
import { loader as pageDownload } from '~/routes/resources/narrative-download'
import { LocaleContext } from '~/hooks/use-locale'
import type { LocaleSettings } from '~/shared/locale'
import { resetDatabase } from '../setup/db'
import { FULL_INPUT } from '../setup/narrative-input'
import { call, cookiesFrom, formRequest, jsonRequest, routeArgs } from '../setup/requests'
import { makeApiUser, PASSWORD } from '../setup/users'
import { unzip } from '../setup/unzip'

// A person's own language variety, date format, currency and paper (docs/decisions/043): saved from the
// account page's plain form, and followed by their pages and their Word and PDF files over whatever
// language their browser asks for.

const ORIGIN = 'https://narratives.example.org'
const WRITTEN = new Date('2026-11-28T12:00:00Z')

beforeEach(async () => {
  await resetDatabase()
  delete process.env.DOCUMENT_LOCALE
  delete process.env.DOCUMENT_PAPER
  resetEnvForTests()
})

afterAll(() => {
  delete process.env.DOCUMENT_LOCALE
  delete process.env.DOCUMENT_PAPER
  resetEnvForTests()
})

/** A person with an API token and a page session, and a saved narrative written on WRITTEN. */
async function person() {
  const { user, token } = await makeApiUser()
  const signedIn = await call(loginAction, formRequest('/login', { email: user.email, password: PASSWORD }))
  // The session alone: the sign-in's own toast is not the one these tests read.
  const cookie = cookiesFrom(signedIn.headers)
    .split('; ')
    .filter((pair) => !pair.startsWith('__toast='))
    .join('; ')
  const { selectedTone, ...fields } = FULL_INPUT
  const created = await call(
    createApi,
    jsonRequest('/api/narrative', { ...fields, tone: selectedTone, generatedNarrative: 'Text.' }, { token }),
  )
  const narrativeId = created.body.data.id as string
  await prisma.narrative.update({ where: { id: narrativeId }, data: { createdAt: WRITTEN } })
  return { user, token, cookie, narrativeId }
}

type Person = Awaited<ReturnType<typeof person>>

/** A request from a browser that asks for `language`, signed in with the person's cookie (or, `token`, the API's). */
function asked(path: string, language: string, { cookie, token }: { cookie?: string; token?: string }) {
  const headers = new Headers({ 'Accept-Language': language })
  if (cookie) headers.set('Cookie', cookie)
  if (token) headers.set('Authorization', `Bearer ${token}`)
  return new Request(ORIGIN + path, { headers })
}

const save = (who: Person, fields: Record<string, string>) =>
  call(accountAction, formRequest('/account', { intent: 'locale', ...fields }, { cookie: who.cookie }))

const choicesOf = (id: string) =>
  prisma.user.findUniqueOrThrow({ where: { id }, select: { languageVariety: true, dateFormat: true, currency: true, paper: true } })

const localeOf = async (who: Person, language: string) =>
  (await call(rootLoader, asked('/dashboard', language, { cookie: who.cookie }))).body.locale as LocaleSettings

describe('the account page’s form', () => {
  it('saves the choices, says so politely, and leaves “From my browser” unset', async () => {
    const ada = await person()
    const saved = await save(ada, { variety: 'en-GB', dateFormat: 'iso', currency: 'EUR', paper: '' })
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe('/account')
    expect(await choicesOf(ada.user.id)).toEqual({ languageVariety: 'en-GB', dateFormat: 'iso', currency: 'EUR', paper: null })
    // The next page shows the toast (the account page's announcement, as its other forms make).
    const next = await call(rootLoader, asked('/account', 'en-US', { cookie: `${ada.cookie}; ${cookiesFrom(saved.headers)}` }))
    expect(next.body.toast).toMatchObject({ type: 'success', message: 'Your language, dates, currency and paper are saved.' })

    // The form shows them again, with what a choice left to the browser comes to.
    const page = await call(accountLoader, asked('/account', 'en-US', { cookie: ada.cookie }))
    expect(page.body.locale.choices).toEqual({ variety: 'en-GB', dateFormat: 'iso', currency: 'EUR', paper: null })
    expect(page.body.locale.browser).toMatchObject({ variety: 'en-US', paper: 'letter' })
    expect(page.body.locale.unchosen).toMatchObject({ variety: 'en-GB', paper: 'a4' })

    // Everything back to the browser.
    expect((await save(ada, { variety: '', dateFormat: '', currency: '', paper: '' })).status).toBe(302)
    expect(await choicesOf(ada.user.id)).toEqual({ languageVariety: null, dateFormat: null, currency: null, paper: null })
  })

  it('is a labelled select for each choice, “From my browser” first and named with what it comes to', async () => {
    const ada = await person()
    const page = await drawn('/account', AccountPage, accountLoader, ada.cookie)
    expect(page).toMatch(/<label for="account-locale-variety">Language<\/label>/)
    expect(page).toMatch(/<select[^>]*id="account-locale-variety"[^>]*name="variety"/)
    // Nothing chosen: no option marked, so the browser shows the first.
    expect(page).toContain('<option value="">From my browser (English (US))</option>')
    expect(page).not.toContain('selected=""')
    expect(page).toContain('<option value="iso">2026-11-28 (ISO 8601)</option>')
    expect(page).toContain('<option value="">From my browser (US Letter)</option>')
    await save(ada, { variety: 'en-GB', dateFormat: '', currency: '', paper: '' })
    const chosen = await drawn('/account', AccountPage, accountLoader, ada.cookie)
    expect(chosen).toContain('<option value="en-GB" selected="">English (UK)</option>')
    expect(chosen).toContain('As my language (28 Nov 2026)')
    expect(chosen).toContain('As English (UK) has it (A4)')
  })

  it('refuses a value it does not offer with an error on its field, and saves nothing', async () => {
    const ada = await person()
    await save(ada, { variety: 'en-GB', dateFormat: '', currency: '', paper: '' })
    const refused = await save(ada, { variety: 'fr-FR', dateFormat: 'dd/mm/yy', currency: 'GBP', paper: 'legal' })
    expect(refused.status).toBe(400)
    expect(refused.body.intent).toBe('locale')
    expect(refused.body.result.error).toEqual({
      variety: ['Choose English (US), English (UK) or “From my browser”'],
      dateFormat: ['Choose one of the date formats listed'],
      paper: ['Choose US Letter, A4 or “From my browser”'],
    })
    expect(await choicesOf(ada.user.id)).toEqual({ languageVariety: 'en-GB', dateFormat: null, currency: null, paper: null })
  })

  it('changes only the signed-in person’s own settings', async () => {
    const ada = await person()
    const grace = await person()
    await save(ada, { variety: 'en-GB', dateFormat: 'day-month-year', currency: 'NZD', paper: 'a4' })
    expect(await choicesOf(grace.user.id)).toEqual({ languageVariety: null, dateFormat: null, currency: null, paper: null })
    expect(await localeOf(grace, 'en-US')).toEqual({
      locale: 'en-US',
      variety: 'en-US',
      dateFormat: null,
      currency: 'USD',
      paper: 'letter',
    })
    expect(await localeOf(ada, 'en-US')).toEqual({
      locale: 'en-GB',
      variety: 'en-GB',
      dateFormat: 'day-month-year',
      currency: 'NZD',
      paper: 'a4',
    })
  })
})

/** A page's component drawn on the server as root.tsx draws it: inside the person's locale, from real loader data. */
async function drawn(path: string, Page: () => ReactNode, loader: Parameters<typeof call>[0], cookie: string) {
  const request = asked(path, 'en-US', { cookie })
  const [root, page] = await Promise.all([call(rootLoader, request.clone()), call(loader, request)])
  function Root() {
    const { locale } = useLoaderData() as { locale: LocaleSettings }
    return createElement(LocaleContext, { value: locale }, createElement(Outlet)) as ReactNode
  }
  const Stub = createRoutesStub([
    { id: 'root', path: '/', Component: Root, children: [{ id: 'page', path: path.slice(1), Component: Page }] },
  ])
  return renderToStaticMarkup(
    createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { root: root.body, page: page.body } } }),
  )
}

describe('pages', () => {
  it('follow the browser until the person chooses, then their choice over the browser', async () => {
    const ada = await person()
    expect(await localeOf(ada, 'en-GB,en;q=0.9')).toMatchObject({ variety: 'en-GB', currency: 'GBP', paper: 'a4' })
    await save(ada, { variety: 'en-US', dateFormat: '', currency: '', paper: '' })
    expect(await localeOf(ada, 'en-GB,en;q=0.9')).toMatchObject({ variety: 'en-US', currency: 'USD', paper: 'letter' })
  })

  it('write a brief’s grants in the person’s currency where the call names none, and keep the call’s own', async () => {
    const ada = await person()
    const brief = (currency: string | null) =>
      prisma.funder.create({ data: { userId: ada.user.id, name: 'Lane Fund', callText: 'Grants.', amountMax: 50_000, currency } })
    const [none, euros] = await Promise.all([brief(null), brief('EUR')])
    const amounts = async (id: string) =>
      (await call(funderLoader, asked(`/funders/${id}`, 'en-US', { cookie: ada.cookie }), { id })).body.funder.amounts
    expect(await amounts(none.id)).toBe('up to $50,000')
    await save(ada, { variety: 'en-GB', dateFormat: '', currency: '', paper: '' })
    expect(await amounts(none.id)).toBe('up to £50,000')
    expect(await amounts(euros.id)).toBe('up to €50,000')
  })

  it('render a date as the person writes dates, whatever the browser asks for', async () => {
    const ada = await person()
    await prisma.funder.create({ data: { userId: ada.user.id, name: 'Lane Fund', callText: 'Grants.', deadline: '2026-11-28' } })
    const render = () => drawn('/funders', FundersPage, fundersLoader, ada.cookie)
    expect(await render()).toContain('Deadline Nov 28, 2026')
    await save(ada, { variety: 'en-GB', dateFormat: '', currency: '', paper: '' })
    expect(await render()).toContain('Deadline 28 Nov 2026')
    await save(ada, { variety: '', dateFormat: 'iso', currency: '', paper: '' })
    expect(await render()).toContain('Deadline 2026-11-28')
  })
})

// ---- files --------------------------------------------------------------------------------------

const A4_DOCX = /<w:pgSz w:w="11906" w:h="16838"/
const LETTER_DOCX = /<w:pgSz w:w="12240" w:h="15840"/

async function wordFile(who: Person, language: string) {
  const request = asked(`/resources/narratives/${who.narrativeId}/docx?tz=UTC`, language, { cookie: who.cookie })
  const response = (await pageDownload(routeArgs(request, { id: who.narrativeId }))) as Response
  expect(response.status).toBe(200)
  return {
    name: /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1],
    document: unzip(Buffer.from(await response.arrayBuffer())).get('word/document.xml') ?? '',
  }
}

async function pdfFile(who: Person, language: string) {
  const request = asked(`/api/narrative/${who.narrativeId}/pdf?tz=UTC`, language, { token: who.token })
  const response = (await apiDownload(routeArgs(request, { id: who.narrativeId }))) as Response
  expect(response.status).toBe(200)
  return {
    name: /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1],
    bytes: Buffer.from(await response.arrayBuffer()).toString('latin1'),
  }
}

describe('Word and PDF files', () => {
  it('follow the browser while the person has not chosen', async () => {
    const ada = await person()
    const american = await wordFile(ada, 'en-US')
    expect(american.name).toBe('Harvest-Table-Food-Bank-Impact-Narrative-November-28-2026.docx')
    expect(american.document).toMatch(LETTER_DOCX)
    const british = await wordFile(ada, 'en-GB')
    expect(british.name).toBe('Harvest-Table-Food-Bank-Impact-Narrative-28-November-2026.docx')
    expect(british.document).toMatch(A4_DOCX)
  })

  it('follow the person’s choices over the browser’s language, page link and token API alike', async () => {
    const ada = await person()
    await save(ada, { variety: 'en-GB', dateFormat: '', currency: '', paper: '' })
    const word = await wordFile(ada, 'en-US')
    expect(word.name).toBe('Harvest-Table-Food-Bank-Impact-Narrative-28-November-2026.docx')
    expect(word.document).toMatch(A4_DOCX)
    expect(word.document).toContain('28 November 2026')
    const pdf = await pdfFile(ada, 'en-US,en;q=0.9')
    expect(pdf.name).toBe('Harvest-Table-Food-Bank-Impact-Narrative-28-November-2026.pdf')
    expect(pdf.bytes).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/)
    expect(pdf.bytes).toContain('/Lang (en-GB)')

    // The paper chosen apart from the variety, and dates in ISO 8601.
    await save(ada, { variety: 'en-GB', dateFormat: 'iso', currency: '', paper: 'letter' })
    const letter = await wordFile(ada, 'en-GB')
    expect(letter.name).toBe('Harvest-Table-Food-Bank-Impact-Narrative-2026-11-28.docx')
    expect(letter.document).toMatch(LETTER_DOCX)
    expect((await pdfFile(ada, 'en-GB')).bytes).toMatch(/\/MediaBox \[0 0 612 792\]/)
  })

  it('take the operator’s DOCUMENT_LOCALE and DOCUMENT_PAPER for what the person has not chosen, and no more', async () => {
    Object.assign(process.env, { DOCUMENT_LOCALE: 'en-GB', DOCUMENT_PAPER: 'a4' })
    resetEnvForTests()
    const ada = await person()
    const unchosen = await wordFile(ada, 'en-US')
    expect(unchosen.name).toBe('Harvest-Table-Food-Bank-Impact-Narrative-28-November-2026.docx')
    expect(unchosen.document).toMatch(A4_DOCX)
    await save(ada, { variety: 'en-US', dateFormat: '', currency: '', paper: '' })
    const chosen = await wordFile(ada, 'en-GB')
    expect(chosen.name).toBe('Harvest-Table-Food-Bank-Impact-Narrative-November-28-2026.docx')
    expect(chosen.document).toMatch(LETTER_DOCX)
  })
})
