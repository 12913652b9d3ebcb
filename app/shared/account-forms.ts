import { z, type ZodTypeAny } from 'zod'
import { ChangePasswordSchema, DeleteAccountSchema, EmailChangeSchema, LocaleChoicesSchema, ProfileNameSchema } from '~/shared/auth-schemas'

/** The account page's forms by their intent: each one's schema, and the fields its reply leaves out (passwords). */
export const ACCOUNT_FORMS = {
  name: { schema: ProfileNameSchema, hideFields: [] },
  email: { schema: EmailChangeSchema, hideFields: ['currentPassword'] },
  password: { schema: ChangePasswordSchema, hideFields: ['currentPassword', 'newPassword', 'confirmPassword'] },
  locale: { schema: LocaleChoicesSchema, hideFields: [] },
  calendar: { schema: z.object({}), hideFields: [] },
  reminders: { schema: z.object({ deadlineReminders: z.boolean().optional() }), hideFields: [] },
  delete: { schema: DeleteAccountSchema, hideFields: ['password'] },
} satisfies Record<string, { schema: ZodTypeAny; hideFields: string[] }>

export type AccountIntent = keyof typeof ACCOUNT_FORMS

export const ACCOUNT_INTENTS = Object.keys(ACCOUNT_FORMS) as AccountIntent[]
