import { z } from 'zod'

/** The longest narrative text a person can save (a 400-word narrative is about 2,500 characters). */
export const NARRATIVE_TEXT_MAX = 20_000

/** Saving an edited narrative: shared by the detail page's form and the API's PUT. */
export const NarrativeTextSchema = z.object({
  generatedNarrative: z
    .string({ required_error: 'The narrative cannot be empty' })
    .max(NARRATIVE_TEXT_MAX * 2, `The narrative must be at most ${NARRATIVE_TEXT_MAX} characters`)
    .transform((text) =>
      text
        .normalize('NFC')
        .replace(/\r\n?/g, '\n')
        .replace(/\u0000/g, '')
        .trim(),
    )
    .pipe(
      z
        .string()
        .min(1, 'The narrative cannot be empty')
        .max(NARRATIVE_TEXT_MAX, `The narrative must be at most ${NARRATIVE_TEXT_MAX} characters`),
    ),
})

/** The target length of a narrative, in words (docs/spec.md#the-prompt). */
export const NARRATIVE_WORDS = { min: 300, max: 400 } as const
