import { useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import type { z, ZodTypeAny } from 'zod'
import { parseForm } from '~/shared/form'

type FormOptions<Schema extends ZodTypeAny> = Parameters<typeof useForm<z.input<Schema>, z.output<Schema>>>[0]

/**
 * A form as every page here has it: the schema's constraints on its inputs, checked in the browser with
 * the same parse the server makes, first on submit and then as the person types.
 */
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
