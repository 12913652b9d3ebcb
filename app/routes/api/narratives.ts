import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import { z } from 'zod'
import { apiError, handleApi, jsonListResponse, methodNotAllowed, readJson, readPage } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { parseNarrativeFilters } from '~/shared/list-query'
import { NarrativeTextSchema } from '~/shared/narrative-text'
import { API_PAGE_LIMIT_MAX, createNarrative, listNarratives, toApiNarrative } from '~/server/narratives/narratives.server'
import { enforceCreateRateLimit } from '~/server/edge/limits.server'
import { DEFAULT_TONE, TONES } from '~/shared/tones'
import { forFunder } from '~/server/funders/funders.server'
import { ForFunderSchema } from '~/shared/for-funder-schema'

/** A list carries each narrative's claims only when asked (`include=claims`), and then at most this many a page. */
const PAGE_LIMIT_WITH_CLAIMS = 20

/** The record as created (docs/api.md#calls): the form's fields with `tone`, plus the text. */
const CreateNarrativeSchema = NarrativeInputSchema.omit({ selectedTone: true })
  .extend({
    tone: z.enum(TONES).default(DEFAULT_TONE),
    generatedNarrative: NarrativeTextSchema.shape.generatedNarrative,
  })
  .merge(ForFunderSchema)

export const loader = ({ request, url }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const include = url.searchParams.getAll('include').flatMap((value) => value.split(','))
    const withClaims = include.includes('claims')
    const withAlignment = include.includes('alignment')
    const page = readPage(url, withClaims || withAlignment ? PAGE_LIMIT_WITH_CLAIMS : API_PAGE_LIMIT_MAX)
    const query = parseNarrativeFilters(url.searchParams)
    if (!query.success) return apiError(400, query.error.issues[0].message)
    const { data, pagination } = await listNarratives({ viewer: user, ...page, filters: query.data })
    return jsonListResponse(data, (narrative) => toApiNarrative(narrative, { withClaims, withAlignment }), { pagination })
  })

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed()
    const user = await requireApiUser(request)
    await enforceCreateRateLimit(user.id)
    const { tone, generatedNarrative, funderId, amountRequested, ...fields } = await readJson(request, CreateNarrativeSchema)
    const funder = await forFunder(user, { funderId, amountRequested })
    const narrative = await createNarrative({
      viewer: user,
      input: { ...fields, selectedTone: tone },
      text: generatedNarrative,
      funder,
      signal: request.signal,
    })
    return Response.json({ data: toApiNarrative(narrative) }, { status: 201 })
  })
