import { z } from 'zod'
import { cleanText } from '~/shared/text'

// Shared by the forms (conform, in the browser) and the actions and JSON API on the server.

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
    .transform(cleanText)
    .pipe(z.string().min(1, `${label} is required`).max(NAME_MAX, `${label} is too long`))

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

/** The token API's registration body (SPEC.md section 7). */
export const RegisterSchema = RegisterFields.superRefine(passwordsMatch(PASSWORDS_DO_NOT_MATCH, 'confirmPassword'))

/** The sign-up page adds the terms box and the separate, optional marketing opt-in. */
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

/** The token API's reset body: no confirmation field. */
export const ApiResetPasswordSchema = z.object({
  token: z.string({ required_error: 'Invalid or missing reset token' }).max(200),
  newPassword: PasswordSchema,
})
