import { z } from 'zod'
import { cleanName, cleanText, hasVisibleCharacter } from '~/shared/text'
import { CURRENCIES, DATE_FORMATS, PAPERS, VARIETIES } from '~/shared/locale'

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128
export const NAME_MAX = 100

export const EmailSchema = z
  .string({ required_error: 'Email is required' })
  .max(254, 'Email is too long')
  .transform((value) => cleanText(value).toLowerCase())
  .pipe(z.string().min(1, 'Email is required').email('Enter a valid email address'))

// Passwords are taken exactly as typed: no trimming, no normalisation, no composition rules.
export const PasswordSchema = z
  .string({ required_error: 'Password is required' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)

const NameSchema = (label: string) =>
  z
    .string({ required_error: `${label} is required` })
    .max(NAME_MAX * 2, `${label} is too long`)
    .transform(cleanName)
    .pipe(
      z
        .string()
        .refine(hasVisibleCharacter, `${label} is required`)
        .pipe(z.string().max(NAME_MAX, `${label} is too long`)),
    )

export const LoginSchema = z.object({
  email: EmailSchema,
  // Any length is checked against the stored hash, but never more than the maximum is hashed.
  password: z.string({ required_error: 'Password is required' }).max(PASSWORD_MAX, 'Invalid email or password'),
  redirectTo: z.string().optional(),
})

const RegisterFields = z.object({
  email: EmailSchema,
  firstName: NameSchema('First name'),
  lastName: NameSchema('Last name'),
  password: PasswordSchema,
  confirmPassword: z.string({ required_error: 'Please confirm your password' }),
})

const passwordsMatch =
  (message: string, field: string) =>
  (value: { password?: string; newPassword?: string; confirmPassword: string }, ctx: z.RefinementCtx) => {
    const password = value.password ?? value.newPassword
    if (password !== value.confirmPassword) ctx.addIssue({ code: 'custom', path: [field], message })
  }

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match'
export const TERMS_REQUIRED = 'You must accept the Terms of Service and Privacy Policy'

export const RegisterSchema = RegisterFields.superRefine(passwordsMatch(PASSWORDS_DO_NOT_MATCH, 'confirmPassword'))

export const SignupSchema = RegisterFields.extend({
  acceptTerms: z
    .boolean({ required_error: TERMS_REQUIRED, invalid_type_error: TERMS_REQUIRED })
    .refine((accepted) => accepted, TERMS_REQUIRED),
  marketingConsent: z.boolean().optional(),
}).superRefine(passwordsMatch(PASSWORDS_DO_NOT_MATCH, 'confirmPassword'))

export const ForgotPasswordSchema = z.object({ email: EmailSchema })

export const ResetPasswordSchema = z
  .object({
    token: z.string({ required_error: 'Invalid or missing reset token' }).max(200),
    newPassword: PasswordSchema,
    confirmPassword: z.string({ required_error: 'Please confirm your password' }),
  })
  .superRefine(passwordsMatch("Passwords don't match", 'confirmPassword'))

export const ApiResetPasswordSchema = z.object({
  token: z.string({ required_error: 'Invalid or missing reset token' }).max(200),
  newPassword: PasswordSchema,
})

// Any length is checked against the stored hash, but never more than the maximum is hashed.
const CurrentPasswordSchema = z
  .string({ required_error: 'Enter your current password' })
  .max(PASSWORD_MAX, 'Your current password is not right')

export const ProfileNameSchema = z.object({ firstName: NameSchema('First name'), lastName: NameSchema('Last name') })

/** One of the values offered; empty (the form's "From my browser") is none chosen. */
const choiceOf = <Values extends readonly [string, ...string[]]>(values: Values, message: string) =>
  z.enum(values, { errorMap: () => ({ message }) }).optional()

/** The account's language, dates, currency and paper (docs/decisions/043). */
export const LocaleChoicesSchema = z.object({
  variety: choiceOf(VARIETIES, 'Choose English (US), English (UK) or “From my browser”'),
  dateFormat: choiceOf(DATE_FORMATS, 'Choose one of the date formats listed'),
  currency: choiceOf(CURRENCIES, 'Choose one of the currencies listed'),
  paper: choiceOf(PAPERS, 'Choose US Letter, A4 or “From my browser”'),
})

export const EmailChangeSchema = z.object({ email: EmailSchema, currentPassword: CurrentPasswordSchema })

export const EmailConfirmSchema = z.object({ token: z.string({ required_error: 'Invalid or missing confirmation link' }).max(200) })

export const ChangePasswordSchema = z
  .object({
    currentPassword: CurrentPasswordSchema,
    newPassword: PasswordSchema,
    confirmPassword: z.string({ required_error: 'Please confirm your password' }),
  })
  .superRefine(passwordsMatch(PASSWORDS_DO_NOT_MATCH, 'confirmPassword'))

export const ApiChangePasswordSchema = z.object({ currentPassword: CurrentPasswordSchema, newPassword: PasswordSchema })

export const DeleteAccountSchema = z.object({ password: CurrentPasswordSchema })

export const DAILY_LIMIT_MAX = 10_000
const DAILY_LIMIT_MESSAGE = `Enter a whole number from 0 to ${DAILY_LIMIT_MAX.toLocaleString('en-US')}`

const DailyLimitSchema = z
  .number({ invalid_type_error: DAILY_LIMIT_MESSAGE })
  .int(DAILY_LIMIT_MESSAGE)
  .min(0, DAILY_LIMIT_MESSAGE)
  .max(DAILY_LIMIT_MAX, DAILY_LIMIT_MESSAGE)

/** `dailyLimit: null` returns the user to the instance's default. */
export const UserControlsSchema = z
  .object({
    disabled: z.boolean({ invalid_type_error: 'disabled must be true or false' }).optional(),
    dailyLimit: DailyLimitSchema.nullable().optional(),
    isAdmin: z.boolean({ invalid_type_error: 'isAdmin must be true or false' }).optional(),
  })
  .refine(
    (changes) => Object.values(changes).some((value) => value !== undefined),
    'Nothing to change: send disabled, dailyLimit or isAdmin',
  )

/** An empty field means the instance's default. */
export const DailyLimitFormSchema = z.object({
  id: z.string().max(100),
  dailyLimit: DailyLimitSchema.optional(),
})

export const InviteSchema = z.object({
  email: EmailSchema,
  firstName: NameSchema('First name'),
  lastName: NameSchema('Last name'),
})

export const AcceptInvitationSchema = z
  .object({
    token: z.string({ required_error: 'Invalid or missing invitation link' }).max(200),
    newPassword: PasswordSchema,
    confirmPassword: z.string({ required_error: 'Please confirm your password' }),
    acceptTerms: z
      .boolean({ required_error: TERMS_REQUIRED, invalid_type_error: TERMS_REQUIRED })
      .refine((accepted) => accepted, TERMS_REQUIRED),
    marketingConsent: z.boolean().optional(),
  })
  .superRefine(passwordsMatch(PASSWORDS_DO_NOT_MATCH, 'confirmPassword'))
