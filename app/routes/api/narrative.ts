import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { NarrativeTextSchema } from '~/shared/narrative-text'
import {
  claimsOfNarrative,
  deleteNarrative,
  getNarrative,
  toApiNarrative,
  updateNarrativeText,
} from '~/server/narratives/narratives.server'
import { disclosureOf } from '~/server/narratives/disclosure.server'

const NOT_FOUND = 'Narrative not found'

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
    if (!narrative) return apiError(404, NOT_FOUND)
    const claims = claimsOfNarrative(narrative)
    return Response.json({
      data: { ...toApiNarrative(narrative, { withClaims: false }), claims, disclosure: await disclosureOf(narrative, claims) },
    })
  })

export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const id = params.id ?? ''
    if (request.method === 'PUT') {
      // Only the text is read from the body; owner, company or isAdmin are ignored.
      const { generatedNarrative } = await readJson(request, NarrativeTextSchema)
      if (!(await updateNarrativeText({ id, viewer: user, text: generatedNarrative, signal: request.signal })))
        return apiError(404, NOT_FOUND)
      return Response.json({ data: toApiNarrative((await getNarrative({ id, viewer: user }))!) })
    }
    if (request.method === 'DELETE') {
      if (!(await deleteNarrative({ id, viewer: user }))) return apiError(404, NOT_FOUND)
      return Response.json({ message: 'Narrative deleted successfully!' })
    }
    return methodNotAllowed()
  })
