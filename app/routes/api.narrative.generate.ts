import type { ActionFunctionArgs } from '@remix-run/node'
import { apiError, handleApi, readJson, requireApiUser, methodNotAllowed } from '~/utils/api.server'
import { streamGenerationEvents } from '~/utils/generation-stream.server'
import { QuotaError, startGeneration } from '~/utils/generations.server'
import { NarrativeInputSchema } from '~/utils/narrative-schema'

/** Starts a generation and streams it as Server-Sent Events; hanging up does not stop it. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const input = await readJson(request, NarrativeInputSchema)
    try {
      const { id, engine } = await startGeneration(user.id, input)
      return streamGenerationEvents({ id, engine, afterSeq: 0, signal: request.signal })
    } catch (error) {
      if (error instanceof QuotaError) return apiError(429, error.message)
      throw error
    }
  })

export const loader = methodNotAllowed
