import { useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import type { z, ZodTypeAny } from 'zod'
import { parseForm } from '~/shared/form'

const constraints = new WeakMap<ZodTypeAny, ReturnType<typeof getZodConstraint>>()

type FormOptions<Schema extends ZodTypeAny> = Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0]

/** Checked in the browser with the same parse the server makes. */
export function useSchemaForm<Schema extends ZodTypeAny>(
  schema: Schema,
  options: Omit<FormOptions<Schema>, 'constraint' | 'shouldValidate' | 'shouldRevalidate' | 'onValidate'>,
) {
  let constraint = constraints.get(schema)
  // Walking the schema is work the server would repeat on every render of the page.
  if (!constraint) constraints.set(schema, (constraint = getZodConstraint(schema)))
  return useForm<z.input<Schema>, z.output<Schema>>({
    ...options,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, schema),
  })
}
