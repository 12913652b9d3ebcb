import { setImmediate } from 'node:timers/promises'
import { prisma } from '~/server/platform/db.server'
import { log } from '~/server/platform/logger.server'
import { toApiNarrative, WITH_OWNER } from '~/server/narratives/narratives.server'
import { toApiVersion, VERSIONS_NEWEST_FIRST } from '~/server/narratives/versions.server'
import { toApiStages, wayOf } from '~/server/narratives/stages.server'
import { toApiVariants, WRITTEN_VARIANTS } from '~/server/narratives/variants.server'
import { toApiFunder } from '~/server/funders/funders.server'

// A person's data, theirs to take (decision 022), in the shapes the token API reads them. Only the user's
// own rows, even for an administrator; the fields are listed, so no password hash, token or link can slip in.

const PROFILE_FIELDS = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  isAdmin: true,
  createdAt: true,
  termsAcceptedAt: true,
  marketingConsentAt: true,
  dailyLimit: true,
  languageVariety: true,
  dateFormat: true,
  currency: true,
  paper: true,
} as const

/**
 * An account may keep 1,000 narratives, each with up to 50 versions of 20,000 characters: written as it is read, a few at
 * a time, the export holds no more than a step in memory or in any one turn of the event loop.
 */
const NARRATIVES_PER_STEP = 5

async function readProfile(userId: string) {
  const { languageVariety, dateFormat, currency, paper, ...profile } = await prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: PROFILE_FIELDS,
  })
  return {
    ...profile,
    // How their pages and files are written (docs/decisions/043); null: from the browser.
    locale: { variety: languageVariety, dateFormat, currency, paper },
    createdAt: profile.createdAt.toISOString(),
    termsAcceptedAt: profile.termsAcceptedAt?.toISOString() ?? null,
    marketingConsentAt: profile.marketingConsentAt?.toISOString() ?? null,
  }
}

async function* inSteps<Row extends { id: string }>(
  size: number,
  read: (page: { take: number; cursor?: { id: string }; skip?: number }) => Promise<Row[]>,
) {
  let cursor: string | undefined
  while (true) {
    const step = await read({ take: size, ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}) })
    yield step
    if (step.length < size) return
    cursor = step[step.length - 1].id
  }
}

async function* readNarratives(userId: string) {
  const steps = inSteps(NARRATIVES_PER_STEP, (page) =>
    prisma.narrative.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      include: { ...WITH_OWNER, versions: VERSIONS_NEWEST_FIRST, variants: WRITTEN_VARIANTS, stages: true },
      ...page,
    }),
  )
  for await (const step of steps)
    yield step.map(({ versions, variants, stages, ...narrative }) => ({
      ...toApiNarrative(narrative),
      stages: toApiStages(wayOf(stages, narrative.createdAt)),
      versions: versions.map(toApiVersion),
      variants: toApiVariants(variants, narrative),
    }))
}

/** A brief's call is at most 100,000 characters: ten of them are a step like five narratives. */
const FUNDERS_PER_STEP = 10

async function* readFunders(userId: string) {
  const steps = inSteps(FUNDERS_PER_STEP, (page) =>
    prisma.funder.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], ...page }),
  )
  for await (const step of steps) yield step.map(toApiFunder)
}

async function* exportText(userId: string, exportedAt: string) {
  yield `{\n  "exportedAt": ${JSON.stringify(exportedAt)},\n  "profile": ${indent(await readProfile(userId))},\n  "narratives": [`
  let count = 0
  for await (const narratives of readNarratives(userId)) {
    for (const narrative of narratives) yield `${count++ ? ',' : ''}\n    ${indent(narrative, 2)}`
    // The next step waits its turn, so other requests are answered in between.
    await setImmediate()
  }
  yield `${count ? '\n  ' : ''}],\n  "funders": [`
  let funders = 0
  for await (const step of readFunders(userId)) {
    for (const funder of step) yield `${funders++ ? ',' : ''}\n    ${indent(funder, 2)}`
    await setImmediate()
  }
  yield `${funders ? '\n  ' : ''}]\n}\n`
  log('info', 'account.exported', { userId, narratives: count, funders })
}

/** JSON.stringify's two-space layout, for a value nested `depth` levels below the top. */
function indent(value: unknown, depth = 1) {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`)
}

/** Never cached: the session lookup marked the answer private. */
export function accountExportResponse(user: { id: string }) {
  const exportedAt = new Date().toISOString()
  const pieces = exportText(user.id, exportedAt)
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await pieces.next()
      if (done) controller.close()
      else controller.enqueue(encoder.encode(value))
    },
    async cancel() {
      await pieces.return(undefined)
    },
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="impact-narrative-studio-account-${exportedAt.slice(0, 10)}.json"`,
    },
  })
}
