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
import { setStage, stagesOf, toApiStages } from '~/server/narratives/stages.server'
import { StageChangeSchema } from '~/shared/stages'

const NOT_FOUND = 'Narrative not found'

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
    if (!narrative) return apiError(404, NOT_FOUND)
    const claims = claimsOfNarrative(narrative)
    const [disclosure, stages] = await Promise.all([disclosureOf(narrative, claims), stagesOf(narrative)])
    return Response.json({
      data: { ...toApiNarrative(narrative, { withClaims: false }), claims, disclosure, stages: toApiStages(stages) },
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
    if (request.method === 'PATCH') {
      // Only the stage is read: the text changes with PUT, and `status` is the generation's.
      const { stage } = await readJson(request, StageChangeSchema)
      const stages = await setStage({ id, viewer: user, stage })
      if (!stages) return apiError(404, NOT_FOUND)
      return Response.json({ data: { ...toApiNarrative((await getNarrative({ id, viewer: user }))!), stages: toApiStages(stages) } })
    }
    if (request.method === 'DELETE') {
      if (!(await deleteNarrative({ id, viewer: user }))) return apiError(404, NOT_FOUND)
      return Response.json({ message: 'Narrative deleted successfully!' })
    }
    return methodNotAllowed()
  })
