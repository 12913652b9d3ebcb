import { useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import type { z, ZodTypeAny } from 'zod'
import { parseForm } from '~/shared/form'

type FormOptions<Schema extends ZodTypeAny> = Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0]

/** Checked in the browser with the same parse the server makes. */
export function useSchemaForm<Schema extends ZodTypeAny>(
  schema: Schema,
  options: Omit<FormOptions<Schema>, 'constraint' | 'shouldValidate' | 'shouldRevalidate' | 'onValidate'>,
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    ...options,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, schema),
  })
}
