import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { streamGenerationEvents } from '~/server/generation/follow/event-stream.server'
import { startVariant } from '~/server/generation/job/jobs.server'
import { getNarrativeWithVariants, toApiVariants } from '~/server/narratives/variants.server'
import { VariantRequestSchema } from '~/shared/variant-limits'

const NOT_FOUND = 'Narrative not found'

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const narrative = await getNarrativeWithVariants({ id: params.id ?? '', viewer: user })
    if (!narrative) return apiError(404, NOT_FOUND)
    return Response.json({ data: toApiVariants(narrative.variants, narrative) })
  })

/** Writes a variant fitted to a limit and streams it as Server-Sent Events, like a generation. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    if (request.method !== 'POST') return methodNotAllowed()
    const variant = await readJson(request, VariantRequestSchema)
    const { id, engine } = await startVariant(user.id, params.id ?? '', variant)
    return streamGenerationEvents({
      id,
      kind: 'variant',
      viewer: user,
      ownerId: user.id,
      engine,
      afterSeq: 0,
      signal: request.signal,
      ownPost: true,
    })
  })
