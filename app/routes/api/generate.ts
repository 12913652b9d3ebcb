import type { ActionFunctionArgs } from 'react-router'
import { handleApi, readJson, methodNotAllowed } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { streamGenerationEvents } from '~/server/generation/follow/event-stream.server'
import { startGeneration } from '~/server/generation/job/jobs.server'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { ForFunderSchema } from '~/shared/for-funder-schema'
import { forFunder } from '~/server/funders/funders.server'

const GenerateSchema = NarrativeInputSchema.merge(ForFunderSchema)

/** Starts a generation (for a funder's brief when `funderId` names one) and streams it as Server-Sent Events; hanging up does not stop it. */
export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const { funderId, amountRequested, ...input } = await readJson(request, GenerateSchema)
    const funder = await forFunder(user, { funderId, amountRequested })
    const { id, engine } = await startGeneration(user.id, input, funder)
    return streamGenerationEvents({ id, viewer: user, ownerId: user.id, engine, afterSeq: 0, signal: request.signal, ownPost: true })
  })

export const loader = methodNotAllowed
