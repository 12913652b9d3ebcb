import { redirect } from 'react-router'
import { prisma, type User } from '~/server/platform/db.server'
import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'
import { LoginSchema } from '~/shared/auth-schemas'
import { markAnswerPrivate } from '~/server/edge/no-store.server'
import { createSecretToken, hashToken } from '~/server/platform/crypto.server'
import { getEnv } from '~/server/platform/env.server'
import { log } from '~/server/platform/logger.server'
import { verifyPassword } from '~/server/accounts/password.server'
import { beforeSignIn, signInSucceeded } from '~/server/accounts/sign-in-guard.server'
import { memoizeForRequest } from '~/server/platform/request-context.server'
import { authSessionStorage } from '~/server/accounts/session.server'
import { announceSessionChange } from '~/server/accounts/session-events.server'
import { readChoices, type LocaleChoices } from '~/shared/locale'
import { ACCOUNT_DISABLED } from '~/server/usage/contract.server'
import { RefusedError } from '~/server/platform/refused-error.server'

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000
export const API_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000

export type SessionKind = 'cookie' | 'api'
export type AuthUser = Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'isAdmin'>
/** `locale`: how they chose their pages and files be written (docs/decisions/043), read in the same query. */
export type SignedInUser = AuthUser & { sessionId: string; locale: LocaleChoices }

const AUTH_USER_SELECT = { id: true, email: true, firstName: true, lastName: true, isAdmin: true } as const

export class InvalidCredentialsError extends RefusedError<401> {
  constructor() {
    super('Invalid email or password', 401)
  }
}

export class AccountDisabledError extends RefusedError<403> {
  constructor() {
    super(ACCOUNT_DISABLED, 403)
  }
}

/** Same answer, in about the same time, for an unknown email and a wrong password; only the right one learns of a disabled account. */
export async function verifyLogin(email: string, password: string): Promise<AuthUser> {
  await beforeSignIn(email)
  const user = await prisma.user.findUnique({ where: { email }, select: { ...AUTH_USER_SELECT, passwordHash: true, disabledAt: true } })
  // An invited account has no password until its owner sets one: nothing matches it.
  const valid = await verifyPassword(user?.passwordHash ?? undefined, password)
  if (!user || !valid) {
    log('warn', 'auth.login_failed', { userId: user?.id })
    throw new InvalidCredentialsError()
  }
  if (user.disabledAt) {
    log('warn', 'auth.login_disabled', { userId: user.id })
    throw new AccountDisabledError()
  }
  await signInSucceeded(email)
  const { passwordHash: _, disabledAt: __, ...authUser } = user
  log('info', 'auth.login', { userId: user.id })
  return authUser
}

export const authenticator = new Authenticator<AuthUser>()
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = LoginSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) throw new InvalidCredentialsError()
    return verifyLogin(parsed.data.email, parsed.data.password)
  }),
  'form',
)

export async function createSession(userId: string, kind: SessionKind): Promise<string> {
  const token = createSecretToken()
  markAnswerPrivate()
  const ttl = kind === 'cookie' ? SESSION_TTL_MS : API_TOKEN_TTL_MS
  await prisma.session.create({
    data: { id: hashToken(token), kind, userId, expiresAt: new Date(Date.now() + ttl) },
  })
  return token
}

/** Every signed-in request runs this: one raw join (decision 006). A disabled user is refused, whatever sessions remain. */
export async function getUserBySessionToken(token: string, kind: SessionKind): Promise<SignedInUser | null> {
  const sessionId = hashToken(token)
  type Row = AuthUser & {
    isAdmin: number | boolean
    languageVariety: string | null
    dateFormat: string | null
    currency: string | null
    paper: string | null
  }
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT u."id", u."email", u."firstName", u."lastName", u."isAdmin", u."languageVariety", u."dateFormat", u."currency", u."paper"
    FROM "Session" s JOIN "User" u ON u."id" = s."userId"
    WHERE s."id" = ${sessionId} AND s."kind" = ${kind} AND s."expiresAt" > ${new Date()} AND u."disabledAt" IS NULL`
  const row = rows[0]
  if (!row) return null
  markAnswerPrivate()
  const { languageVariety, dateFormat, currency, paper, ...user } = row
  return { ...user, isAdmin: Boolean(user.isAdmin), sessionId, locale: readChoices({ languageVariety, dateFormat, currency, paper }) }
}

export async function deleteSession(token: string) {
  const id = hashToken(token)
  const session = await prisma.session.findUnique({ where: { id }, select: { userId: true } })
  if (!session) return
  await prisma.session.deleteMany({ where: { id } })
  announceSessionChange({ kind: 'ended', userId: session.userId, sessionIds: [id] })
  log('info', 'auth.logout', { userId: session.userId })
}

async function readCookieSession(request: Request) {
  return authSessionStorage.getSession(request.headers.get('Cookie'))
}

export async function getCookieSessionToken(request: Request): Promise<string | undefined> {
  return (await readCookieSession(request)).get('sessionId')
}

export async function getOptionalUser(request: Request): Promise<SignedInUser | null> {
  const token = (await readCookieSession(request)).get('sessionId')
  return token ? memoizeForRequest(`cookie-user:${token}`, () => getUserBySessionToken(token, 'cookie')) : null
}

/** The bearer token's user, looked up once a request: the body's rate limit asks before the route does. */
export function getApiUser(token: string): Promise<SignedInUser | null> {
  return memoizeForRequest(`api-user:${token}`, () => getUserBySessionToken(token, 'api'))
}

/** `url`: React Router's URL of the page (no `.data` suffix, no `?index`). */
type GuardArgs = { request: Request; url: URL }

export async function requireUser({ request, url }: GuardArgs): Promise<SignedInUser> {
  const user = await getOptionalUser(request)
  if (!user) {
    const redirectTo = encodeURIComponent(url.pathname + url.search)
    throw redirect(`/login?redirectTo=${redirectTo}`)
  }
  return user
}

/** Admin is read from the database on every request, so a revoked admin loses access at once. */
export async function requireAdmin(args: GuardArgs): Promise<SignedInUser> {
  const user = await requireUser(args)
  if (!user.isAdmin) {
    log('warn', 'auth.denied', { userId: user.id, path: args.url.pathname })
    throw new Response('Forbidden', { status: 403, statusText: 'Forbidden' })
  }
  return user
}

/** A new session id at every sign-in; the previous one is deleted, as it will never be presented again. */
export async function commitNewCookieSession(request: Request, userId: string): Promise<string> {
  const session = await readCookieSession(request)
  const previous = session.get('sessionId')
  if (previous) await deleteSession(previous)
  session.set('sessionId', await createSession(userId, 'cookie'))
  return authSessionStorage.commitSession(session, { maxAge: SESSION_TTL_MS / 1000 })
}

export async function endCookieSession(request: Request): Promise<string> {
  const session = await readCookieSession(request)
  const token = session.get('sessionId')
  if (token) await deleteSession(token)
  return authSessionStorage.destroySession(session)
}

/** Never an open redirect: resolved as a browser would (dropping tabs and newlines, reading \ as /), kept only on APP_ORIGIN. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/dashboard') {
  if (typeof to !== 'string' || !to.startsWith('/')) return fallback
  const origin = new URL(getEnv().appOrigin).origin
  const url = URL.parse(to, origin)
  // A path that normalises to `//host` would be read as another site.
  if (!url || url.origin !== origin || url.pathname.startsWith('//')) return fallback
  return url.pathname + url.search + url.hash
}
