import { parseWithZod, unstable_coerceFormValue as coerceFormValue } from '@conform-to/zod'
import { z, type ZodTypeAny } from 'zod'

const coercedSchemas = new WeakMap<ZodTypeAny, ZodTypeAny>()

/** parseWithZod rebuilds its coercion on every call, on the server and at every keystroke (docs/PERFORMANCE.md). */
export function parseForm<Schema extends ZodTypeAny>(formData: FormData, schema: Schema) {
  const shape = refuseUnexpectedShape(formData, schema)
  let coerced = coercedSchemas.get(schema)
  if (!coerced) coercedSchemas.set(schema, (coerced = coerceFormValue(schema)))
  const submission = parseWithZod(formData, { schema: coerced as Schema, disableAutoCoercion: true })
  keepOversizedValuesBack(submission, formData, shape)
  return submission
}

/**
 * A value past its field's limit is never sent back (a 6 MB paste would come back as a 12 MB page): its
 * field is left empty with its error, saying why where the text was far too long to be a slip of typing.
 */
function keepOversizedValuesBack(
  submission: { error?: Record<string, unknown> | null; reply: Reply },
  formData: FormData,
  shape: FormShape,
) {
  const oversized: Record<string, string[]> = {}
  for (const [name, value] of formData.entries()) {
    const max = shape.maxLengths.get(fieldOf(name, shape))
    if (typeof value !== 'string' || max === undefined || value.length <= max || !submission.error?.[name]) continue
    const own = (submission.error[name] as string[] | null) ?? []
    oversized[name] = value.length > max + TYPING_SLIP ? [notKept(value.length, max), ...own] : own
  }
  const names = Object.keys(oversized)
  if (!names.length) return
  const reply = submission.reply
  submission.reply = (options: ReplyOptions = {}) =>
    options.resetForm
      ? reply(options)
      : reply({ ...options, hideFields: [...(options.hideFields ?? []), ...names], fieldErrors: { ...oversized, ...options.fieldErrors } })
}
/** How far past a limit typing goes; further, the text was pasted, and the page says why its field is empty. */
const TYPING_SLIP = 100
const notKept = (length: number, max: number) =>
  `The pasted text was too long (${length.toLocaleString('en-US')} characters; at most ${max.toLocaleString('en-US')}), so it was not kept. Paste a shorter text.`
type ReplyOptions = { resetForm?: boolean; formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }
type Reply = (options?: ReplyOptions) => unknown

/** conform copies the list so far at each repeat of a name (20,000 held the server a second): only lists repeat. */
export class FormShapeError extends Response {
  constructor() {
    super('This form does not match the page it was sent from. Reload the page and try again.', { status: 400 })
  }
}

/** A form's `intent`, one of `intents`, which a page with several actions switches on; anything else is a 400. */
export function intentOf<const Intent extends string>(formData: FormData, intents: readonly Intent[]): Intent {
  const intent = formData.get('intent')
  if (typeof intent === 'string' && (intents as readonly string[]).includes(intent)) return intent as Intent
  throw new Response('Unknown intent', { status: 400 })
}

/** The intent, an id, a token, where to go next. */
const EXTRA_ENTRIES = 4
const LIST_MAX = 100

type FormShape = { maxEntries: number; lists: Map<string, number>; maxLengths: Map<string, number> }
const shapes = new WeakMap<ZodTypeAny, FormShape>()

function refuseUnexpectedShape(formData: FormData, schema: ZodTypeAny) {
  let shape = shapes.get(schema)
  if (!shape) shapes.set(schema, (shape = shapeOf(schema)))
  const counts = new Map<string, number>()
  let entries = 0
  for (const name of formData.keys()) {
    const field = fieldOf(name, shape)
    const count = (counts.get(field) ?? 0) + 1
    counts.set(field, count)
    if (++entries > shape.maxEntries || count > (shape.lists.get(field) ?? 1)) throw new FormShapeError()
  }
  return shape
}

// conform builds a list as long as the largest index it is sent, and zod walks every slot before its
// maximum: `priorities[4294967294]` alone would hold the server for hours. Its intents can name any
// index too; they are the browser's own (validating a field as it is typed), never sent by our pages.
const INDEXED = /^(\w+)\[(\d{1,4})\]$/
const CONFORM_RESERVED = new Set(['__intent__', '__state__'])

/** The schema field an entry fills: an indexed name is its list's, if the index is one the list can hold. */
function fieldOf(name: string, shape: FormShape) {
  if (CONFORM_RESERVED.has(name)) {
    if (typeof document === 'undefined') throw new FormShapeError()
    return name
  }
  if (!/[[.]/.test(name)) return name
  const [, list, index] = INDEXED.exec(name) ?? []
  const max = list === undefined ? undefined : shape.lists.get(list)
  if (max === undefined || Number(index) >= max) throw new FormShapeError()
  return list
}

function shapeOf(schema: ZodTypeAny): FormShape {
  const fields = Object.entries(objectShape(schema))
  const lists = new Map<string, number>()
  const maxLengths = new Map<string, number>()
  for (const [name, field] of fields) {
    const list = unwrap(field)
    if (list instanceof z.ZodArray) lists.set(name, list._def.maxLength?.value ?? LIST_MAX)
    const maxLength = maxLengthOf(list instanceof z.ZodArray ? list.element : field)
    if (maxLength !== undefined) maxLengths.set(name, maxLength)
  }
  const listValues = [...lists.values()].reduce((sum, max) => sum + max - 1, 0)
  return { maxEntries: fields.length + listValues + EXTRA_ENTRIES, lists, maxLengths }
}

/** The entries at most any form of `schema` may hold: the shape parseForm checks. */
export function maxEntriesOf(schema: ZodTypeAny) {
  return shapeOf(schema).maxEntries
}

/** The most characters a text field keeps: the smallest of its schema's maximums (before and after cleaning). */
function maxLengthOf(schema: ZodTypeAny): number | undefined {
  if (schema instanceof z.ZodString) return schema.maxLength ?? undefined
  if (schema instanceof z.ZodPipeline) {
    const maxima = [maxLengthOf(schema._def.in), maxLengthOf(schema._def.out)].filter((max) => max !== undefined)
    return maxima.length ? Math.min(...maxima) : undefined
  }
  if (schema instanceof z.ZodEffects) return maxLengthOf(schema.innerType())
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return maxLengthOf(schema.unwrap())
  if (schema instanceof z.ZodDefault) return maxLengthOf(schema.removeDefault())
  return undefined
}

function objectShape(schema: ZodTypeAny): z.ZodRawShape {
  const inner = unwrap(schema)
  return inner instanceof z.ZodObject ? inner.shape : {}
}

function unwrap(schema: ZodTypeAny): ZodTypeAny {
  if (schema instanceof z.ZodEffects) return unwrap(schema.innerType())
  if (schema instanceof z.ZodPipeline) return unwrap(schema._def.in)
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return unwrap(schema.unwrap())
  if (schema instanceof z.ZodDefault) return unwrap(schema.removeDefault())
  return schema
}
