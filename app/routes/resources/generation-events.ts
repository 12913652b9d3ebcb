import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { getAfterSeq, streamGenerationEvents } from '~/server/generation/follow/event-stream.server'
import { getNarrativeEngine } from '~/server/narratives/narratives.server'

/** Never starts or bills a generation. */
export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const narrative = await getNarrativeEngine({ id: params.id ?? '', viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  return streamGenerationEvents({
    id: narrative.id,
    viewer: user,
    ownerId: narrative.userId,
    engine: narrative.engine,
    afterSeq: getAfterSeq(request),
    signal: request.signal,
  })
}
