import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/utils/auth.server'
import { getAfterSeq, streamGenerationEvents } from '~/utils/generation-stream.server'
import { getNarrativeEngine } from '~/utils/narratives.server'

/** The page's EventSource: follows a generation; never starts or bills one. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const narrative = await getNarrativeEngine({ id: params.id ?? '', viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  return streamGenerationEvents({
    id: narrative.id,
    engine: narrative.engine,
    afterSeq: getAfterSeq(request),
    signal: request.signal,
  })
}
