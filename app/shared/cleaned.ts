import { z } from 'zod'
import { cleanText } from '~/shared/text'

/** A pasted text of at most `max` characters once cleaned, with its line ends made one kind. */
export const cleaned = (max: number, clean: (value: string) => string = cleanText) =>
  z
    .string()
    .max(max * 2, `Must be at most ${max} characters`)
    .transform((value) => clean(value.replace(/\r\n?/g, '\n')))
    .pipe(z.string().max(max, `Must be at most ${max} characters`))
