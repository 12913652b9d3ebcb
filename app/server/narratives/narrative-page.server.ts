import { contactsOf } from '~/shared/contacts'
import type { StreamStatus } from '~/shared/generation-status'
import { toneLabel } from '~/shared/tones'
import { fullName } from '~/shared/user-summary'
import { questionLimit } from '~/shared/variant-limits'
import { getQuota } from '~/server/usage/quota.server'
import { variantsCostNothing } from '~/server/generation/engines/engine.server'
import type { Viewer } from '~/server/narratives/access.server'
import { coverageOf, parseBrief } from '~/server/narratives/alignment.server'
import { leftOut } from '~/server/narratives/coverage.server'
import { alignmentOfNarrative, claimsOfNarrative } from '~/server/narratives/narratives.server'
import { claimsOfVariant, currentVariantTest, getNarrativeWorkbench, getVariant, limitOfVariant } from '~/server/narratives/variants.server'
import { getVersion } from '~/server/narratives/versions.server'
import { disclosureOf } from '~/server/narratives/disclosure.server'
import { stagesOf } from '~/server/narratives/stages.server'
import { isStage } from '~/shared/stages'
import { compareWordsInPool } from '~/server/narratives/word-diff.server'

/**
 * A narrative's page (docs/spec.md#narrative-page), only what it shows (no owner id, no quota
 * bookkeeping): `?version=` compares a saved version with the text, `?variant=` follows a variant
 * being written. Null when the viewer may not see the narrative.
 */
export async function loadNarrativePage({ id, viewer, url, signal }: { id: string; viewer: Viewer; url: URL; signal: AbortSignal }) {
  const narrative = await getNarrativeWorkbench({ id, viewer })
  if (!narrative) return null
  const { versions } = narrative
  // Variants are written on the owner's allowance: an administrator reading someone else's narrative sees them, but writes none.
  const owned = narrative.userId === viewer.id
  const versionId = url.searchParams.get('version')
  const variantId = url.searchParams.get('variant')
  const claims = claimsOfNarrative(narrative)
  const [selected, liveVariant, variantsLeft, disclosure, stages] = await Promise.all([
    versionId ? getVersion({ id, versionId, viewer }) : null,
    owned && variantId ? getVariant({ id: variantId, viewer }) : null,
    variantsLeftFor(owned ? viewer.id : null),
    disclosureOf(narrative, claims),
    stagesOf(narrative),
  ])
  const { company, status, engine, generatedNarrative, updatedAt, user: owner } = narrative
  const brief = parseBrief(narrative.brief)
  const alignment = status === 'generating' ? [] : alignmentOfNarrative(narrative)
  const diff = selected ? await compareWordsInPool(selected.text, generatedNarrative, signal) : null
  const isCurrent = currentVariantTest(generatedNarrative)
  return {
    funder: narrative.funderName
      ? {
          id: narrative.funderId,
          name: narrative.funderName,
          amountRequested: narrative.amountRequested,
          deadline: narrative.deadline,
          maxWords: brief?.maxWords ?? null,
          alignment,
          coverage: coverageOf(alignment),
          questions: (brief?.questions ?? []).map((question) => ({ text: question.text, limit: questionLimit(question) })),
        }
      : null,
    narrative: {
      id,
      company,
      status,
      engine,
      generatedNarrative,
      updatedAt,
      claims,
      leftOut: narrative.status === 'complete' ? leftOut(narrative.generatedNarrative, narrative) : [],
      tone: toneLabel(narrative.tone),
      ownerName: fullName(owner),
      ownerEmail: owner.email,
      missionStatement: narrative.missionStatement,
      targetAudience: narrative.targetAudience,
      geographicFocus: narrative.geographicFocus,
      keyPrograms: narrative.keyPrograms,
      impactMetrics: narrative.impactMetrics,
      successStory: narrative.successStory,
      website: narrative.website,
      contacts: contactsOf(narrative),
    },
    versions: versions.map(({ id, source, createdAt }) => ({ id, source, createdAt })),
    selectedVersion: selected && {
      ...selected,
      current: selected.id === versions[0]?.id,
      diff,
    },
    variants: narrative.variants.map((variant) => ({
      id: variant.id,
      format: variant.format,
      question: variant.question,
      limit: limitOfVariant(variant),
      text: variant.text,
      createdAt: variant.createdAt,
      claims: claimsOfVariant(variant, narrative),
      current: isCurrent(variant),
    })),
    liveVariant: liveVariant && {
      id: liveVariant.id,
      status: liveVariant.status as StreamStatus,
      text: liveVariant.text,
      limit: limitOfVariant(liveVariant),
    },
    canWriteVariants: owned,
    variantsLeft,
    disclosure,
    stage: isStage(narrative.stage) ? narrative.stage : 'drafting',
    stages,
  }
}

/** The answers and variants the owner may still write today; null when they cost nothing (the offline drafter). */
async function variantsLeftFor(ownerId: string | null): Promise<number | null> {
  if (ownerId === null) return 0
  return variantsCostNothing() ? null : (await getQuota(ownerId)).variantsLeft
}
