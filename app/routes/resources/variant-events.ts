import type { LoaderFunctionArgs } from 'react-router'
import { requireUser } from '~/server/accounts/auth.server'
import { getAfterSeq, streamGenerationEvents } from '~/server/generation/follow/event-stream.server'
import { getVariant } from '~/server/narratives/variants.server'

/** Never starts or bills a variant. */
export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const variant = await getVariant({ id: params.id ?? '', viewer: user })
  if (!variant) throw new Response('Not found', { status: 404 })
  return streamGenerationEvents({
    id: variant.id,
    kind: 'variant',
    viewer: user,
    ownerId: variant.userId,
    engine: variant.engine,
    afterSeq: getAfterSeq(request),
    signal: request.signal,
  })
}
