import { fullName } from '~/shared/user-summary'
import {
  data,
  isRouteErrorResponse,
  Links,
  type LinksFunction,
  type LoaderFunctionArgs,
  Meta,
  type MetaFunction,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from 'react-router'
import { useEffect, type ReactNode } from 'react'
import { RequestIdNote } from './components/request-id'
import { SiteFooter } from './components/site-footer'
import { SiteHeader } from './components/site-header'
import { Toaster } from './components/toaster'
import type { RootData } from '~/shared/root-data'
import { useFocusAfterNavigation } from './hooks/use-focus-after-navigation'
import styles from './styles/app.css?url'
import { getOptionalUser } from '~/server/accounts/auth.server'
import { noStoreForPrivateAnswers } from '~/server/edge/no-store.server'
import { getEnv } from '~/server/platform/env.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { useNonce } from '~/hooks/use-nonce'
import { LocaleContext } from '~/hooks/use-locale'
import { US_ENGLISH } from '~/shared/locale'
import { getToast } from '~/server/http/toast.server'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [
  { title: 'Impact Narrative Studio' },
  { name: 'description', content: 'Write the impact narrative your funders, donors and board will read.' },
]

export const middleware = [noStoreForPrivateAnswers]

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, { toast, headers }] = await Promise.all([getOptionalUser(request), getToast(request)])
  return data<RootData>(
    {
      user: user && { name: fullName(user), email: user.email, isAdmin: user.isAdmin },
      toast: toast ?? null,
      contactEmail: getEnv().CONTACT_EMAIL,
      // How every page writes dates, money and the words US and UK English spell apart (docs/decisions/043).
      locale: localeSettings(request, user?.locale),
    },
    // getToast always re-commits its cookie; only send it when there was a toast to clear.
    { headers: toast ? headers : undefined },
  )
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  // Missing on an error page whose loader failed: the product's own English.
  const locale = useRouteLoaderData<typeof loader>('root')?.locale ?? US_ENGLISH
  return (
    <html lang={locale.variety}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <LocaleContext value={locale}>{children}</LocaleContext>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  return <Document>{children}</Document>
}

export default function App() {
  const { user, toast } = useLoaderData<typeof loader>()
  useFocusAfterNavigation()
  // A mark that the page now runs its JavaScript: before it, a form posts as it does without any, which
  // the end-to-end tests of the script's behaviour wait past.
  useEffect(() => document.documentElement.setAttribute('data-hydrated', ''), [])
  return (
    <>
      <SiteHeader user={user} />
      <main id="main" className="site-main">
        <Outlet />
      </main>
      <SiteFooter />
      <Toaster serverToast={toast} />
    </>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const title =
    status === 400
      ? 'Your request could not be read'
      : status === 403
        ? 'Access denied'
        : status === 404
          ? 'Page not found'
          : 'Something went wrong'
  const message =
    status === 400 && isRouteErrorResponse(error) && typeof error.data === 'string'
      ? error.data
      : status === 403
        ? 'You do not have permission to view this page.'
        : status === 404
          ? 'We could not find what you were looking for.'
          : 'Sorry, an unexpected error occurred. Please try again.'
  return (
    <main id="main" className="site-main">
      <div className="card narrow error-page">
        <h1>{title}</h1>
        <p>{message}</p>
        <RequestIdNote />
        <p>
          <a href="/">Go to the start page</a>
        </p>
      </div>
    </main>
  )
}
