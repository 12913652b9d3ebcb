import type { ActionFunctionArgs } from 'react-router'
import { apiError, handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser } from '~/server/accounts/api-auth.server'
import { getApplication, saveAnswer, toApiQuestion } from '~/server/narratives/application.server'
import { AnswerSchema, QuestionPlaceSchema } from '~/shared/application'

const NOT_FOUND = 'Question not found'

export const loader = methodNotAllowed

/** PUT: the person's answer to the question at that place becomes its newest. */
export const action = ({ request, params }: ActionFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    if (request.method !== 'PUT') return methodNotAllowed()
    const id = params.id ?? ''
    const place = QuestionPlaceSchema.safeParse(params.index)
    if (!place.success) return apiError(404, NOT_FOUND)
    const index = place.data
    const { text } = await readJson(request, AnswerSchema)
    if (!(await saveAnswer({ id, viewer: user, index, text }))) return apiError(404, NOT_FOUND)
    const application = await getApplication({ id, viewer: user, signal: request.signal })
    return Response.json({ data: toApiQuestion(application!.questions[index]) })
  })
