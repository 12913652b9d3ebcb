import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import { z } from 'zod'
import { apiError, handleApi, methodNotAllowed, readJson, readPage, requireApiUser } from '~/server/http/api.server'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { NarrativeTextSchema } from '~/shared/narrative-text'
import { API_PAGE_LIMIT_MAX, createNarrative, listNarratives, toApiNarrative } from '~/server/narratives/narratives.server'
import { enforceCreateRateLimit } from '~/server/edge/rate-limit.server'
import { TONES } from '~/shared/tones'
import { SavedLimitError } from '~/server/generation/quota/contract.server'

/** A list carries each narrative's claims only when asked (`include=claims`), and then at most this many a page. */
const PAGE_LIMIT_WITH_CLAIMS = 20

/** The record as created (docs/api.md#calls): the form's fields with `tone`, plus the text. */
const CreateNarrativeSchema = NarrativeInputSchema.omit({ selectedTone: true }).extend({
  tone: z.enum(TONES).default('professional'),
  generatedNarrative: NarrativeTextSchema.shape.generatedNarrative,
})

export const loader = ({ request, url }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const withClaims = url.searchParams.getAll('include').includes('claims')
    const page = readPage(url, withClaims ? PAGE_LIMIT_WITH_CLAIMS : API_PAGE_LIMIT_MAX)
    const { data, pagination } = await listNarratives({ viewer: user, ...page })
    return Response.json({ data: data.map((narrative) => toApiNarrative(narrative, { withClaims })), pagination })
  })

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed()
    const user = await requireApiUser(request)
    await enforceCreateRateLimit(user.id)
    const { tone, generatedNarrative, ...fields } = await readJson(request, CreateNarrativeSchema)
    try {
      const narrative = await createNarrative({ viewer: user, input: { ...fields, selectedTone: tone }, text: generatedNarrative })
      return Response.json({ data: toApiNarrative(narrative) }, { status: 201 })
    } catch (error) {
      if (error instanceof SavedLimitError) return apiError(403, error.message)
      throw error
    }
  })
