import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, readJson, requireApiUser, methodNotAllowed } from '~/server/http/api.server'
import { streamGenerationEvents } from '~/server/generation/follow/event-stream.server'
import { startGeneration } from '~/server/generation/job/jobs.server'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { QuotaError } from '~/server/generation/quota/contract.server'

/** Starts a generation and streams it as Server-Sent Events; hanging up does not stop it. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const input = await readJson(request, NarrativeInputSchema)
    try {
      const { id, engine } = await startGeneration(user.id, input)
      return streamGenerationEvents({ id, viewer: user, ownerId: user.id, engine, afterSeq: 0, signal: request.signal })
    } catch (error) {
      if (error instanceof QuotaError) return apiError(error.status, error.message)
      throw error
    }
  })

export const loader = methodNotAllowed
