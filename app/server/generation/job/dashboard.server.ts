import { durationUntil } from '~/shared/dates'
import { DRAFTER_ENGINE } from '~/shared/engines'
import type { StreamStatus } from '~/shared/generation-status'
import { getEngine } from '~/server/generation/engines/engine.server'
import { listFunderChoices } from '~/server/funders/funders.server'
import type { Viewer } from '~/server/narratives/access.server'
import { parseBrief } from '~/server/narratives/alignment.server'
import { leftOut } from '~/server/narratives/coverage.server'
import { claimsOfNarrative, getLastGenerationInputs, getNarrative, toFormValues } from '~/server/narratives/narratives.server'
import { getQuota } from '~/server/usage/quota.server'

/**
 * The page that writes a narrative (docs/spec.md#dashboard): the form, filled from `?from=` (edit to
 * regenerate) or the organisation last described, the brief `?funder=` chose, the day's quota, and the
 * generation `?narrative=` names.
 */
export async function loadDashboard({ viewer, url }: { viewer: Viewer; url: URL }) {
  const searchParams = url.searchParams
  const narrativeId = searchParams.get('narrative')
  const fromId = searchParams.get('from')
  const [quota, narrative, source, funders] = await Promise.all([
    getQuota(viewer.id),
    narrativeId ? getNarrative({ id: narrativeId, viewer }) : null,
    // Edit to regenerate: a saved narrative's inputs fill the form; else the organisation last described.
    fromId ? getNarrative({ id: fromId, viewer }) : getLastGenerationInputs(viewer.id),
    listFunderChoices(viewer),
  ])
  // The brief a link chose (?funder=, from a brief's page), else the one the form's narrative was written for, if it is still there.
  const chosenFunder = [searchParams.get('funder'), source?.funderId].find((id) => id && funders.some((funder) => funder.id === id)) ?? ''
  return {
    userId: viewer.id,
    remaining: quota.remaining,
    // Said on the server, so the page reads the same with and without JavaScript.
    quota: { ...quota, resetsIn: durationUntil(quota.resetsAt) },
    engine: getEngine().name,
    offline: getEngine().name === DRAFTER_ENGINE,
    // A second opinion on the evidence is the model's: the offline drafter has none to give.
    secondOpinion: Boolean(getEngine().reviewEvidence),
    isAdmin: viewer.isAdmin,
    formValues: source
      ? {
          ...toFormValues(source),
          funderId: chosenFunder,
          amountRequested: chosenFunder === source.funderId ? (source.amountRequested ?? '') : '',
        }
      : chosenFunder
        ? { funderId: chosenFunder }
        : null,
    funders,
    editing: Boolean(fromId),
    // The generation the form was filled from: unsaved edits typed before a newer one are stale.
    rememberedFrom: fromId ? null : (source?.id ?? null),
    narrative: narrative && {
      id: narrative.id,
      text: narrative.generatedNarrative,
      status: narrative.status as StreamStatus,
      engine: narrative.engine,
      claims: narrative.status === 'generating' ? [] : claimsOfNarrative(narrative),
      leftOut: narrative.status === 'complete' ? leftOut(narrative.generatedNarrative, narrative) : [],
      maxWords: parseBrief(narrative.brief)?.maxWords ?? null,
    },
  }
}
