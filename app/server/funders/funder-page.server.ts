import { describeAmounts, type LocaleChoices } from '~/shared/locale'
import type { Viewer } from '~/server/narratives/access.server'
import { localeSettings } from '~/server/narratives/document-locale.server'
import { getFunder, prioritiesOf, questionsOf, termsOf } from '~/server/funders/funders.server'

/**
 * A funder brief's page (docs/spec.md#funder-briefs): the brief as shown, and the form's values, which
 * end the questions with a blank row to add one. Null when it is not the viewer's.
 */
export async function loadFunderPage({
  viewer,
  id,
  request,
}: {
  viewer: Viewer & { locale: LocaleChoices }
  id: string
  request: Request
}) {
  const funder = await getFunder(viewer, id)
  if (!funder) return null
  const priorities = () => prioritiesOf(funder).map((priority) => priority.text)
  const questions = questionsOf(funder)
  return {
    funder: {
      id: funder.id,
      name: funder.name,
      callText: funder.callText,
      source: funder.source,
      createdAt: funder.createdAt,
      updatedAt: funder.updatedAt,
      // The grants in the call's currency, or the person's where it names none (docs/decisions/043).
      amounts: describeAmounts(funder, localeSettings(request, viewer.locale)),
      /** As saved, in order: what the move buttons name and move. */
      priorities: priorities(),
    },
    values: {
      name: funder.name,
      deadline: funder.deadline ?? '',
      amountMin: funder.amountMin?.toString() ?? '',
      amountMax: funder.amountMax?.toString() ?? '',
      currency: funder.currency ?? '',
      maxWords: funder.maxWords?.toString() ?? '',
      // Priorities are added in a box, one a line; the questions end with a blank row, to add one.
      priorities: priorities(),
      newPriorities: '',
      questionText: [...questions.map((question) => question.text), ''],
      questionMaxWords: [...questions.map((question) => question.maxWords?.toString() ?? ''), ''],
      questionMaxCharacters: [...questions.map((question) => question.maxCharacters?.toString() ?? ''), ''],
      questionSpaces: [...questions.map((question) => (question.withoutSpaces ? 'without' : 'with')), 'with'],
      terms: termsOf(funder).join('\n'),
    },
  }
}
