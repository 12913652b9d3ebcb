import { z } from 'zod'
import { cleanText } from '~/shared/text'

/** A 400-word narrative is about 2,500 characters. */
export const NARRATIVE_TEXT_MAX = 20_000

export const NarrativeTextSchema = z.object({
  generatedNarrative: z
    .string({ required_error: 'The narrative cannot be empty' })
    .max(NARRATIVE_TEXT_MAX * 2, `The narrative must be at most ${NARRATIVE_TEXT_MAX} characters`)
    .transform((text) => cleanText(text.replace(/\r\n?/g, '\n')))
    .pipe(
      z
        .string()
        .min(1, 'The narrative cannot be empty')
        .max(NARRATIVE_TEXT_MAX, `The narrative must be at most ${NARRATIVE_TEXT_MAX} characters`),
    ),
})

/** The prompt's target, in words (docs/spec.md#the-prompt). */
export const NARRATIVE_WORDS = { min: 300, max: 400 } as const

/** Edits within this time of the newest version, itself an edit, are one version: a writing session, not each save. */
export const EDIT_SESSION_MS = 10 * 60 * 1000
