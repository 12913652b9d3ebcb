import { parseWithZod, unstable_coerceFormValue as coerceFormValue } from '@conform-to/zod'
import type { ZodTypeAny } from 'zod'

const coercedSchemas = new WeakMap<ZodTypeAny, ZodTypeAny>()

/**
 * conform's parseWithZod, with each schema's form-value coercion built once. parseWithZod rebuilds it
 * on every call: 1.4 ms for the narrative form, on the server before a generation starts and in the
 * browser on every keystroke (docs/PERFORMANCE.md). The coercion is the one parseWithZod applies.
 */
export function parseForm<Schema extends ZodTypeAny>(formData: FormData, schema: Schema) {
  let coerced = coercedSchemas.get(schema)
  if (!coerced) coercedSchemas.set(schema, (coerced = coerceFormValue(schema)))
  return parseWithZod(formData, { schema: coerced as Schema, disableAutoCoercion: true })
}
