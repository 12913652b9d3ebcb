import { index, layout, prefix, route, type RouteConfig } from '@react-router/dev/routes'

// Every URL the app answers, and the file that answers it (docs/spec.md#routes). The URLs are the ones
// the product has always had; the files are named for what they do.
export default [
  index('routes/home.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('create-narrative', 'routes/create-narrative.tsx'),

  layout('routes/public/layout.tsx', [
    route('login', 'routes/public/login.tsx'),
    route('signup', 'routes/public/signup.tsx'),
    route('forgot-password', 'routes/public/forgot-password.tsx'),
    route('reset-password', 'routes/public/reset-password.tsx'),
    route('welcome', 'routes/public/welcome.tsx'),
    route('terms', 'routes/public/terms.tsx'),
    route('privacy-policy', 'routes/public/privacy-policy.tsx'),
    route('copyright-policy', 'routes/public/copyright-policy.tsx'),
    route('email-consent', 'routes/public/email-consent.tsx'),
  ]),

  // Signed in.
  layout('routes/app/layout.tsx', [
    route('dashboard', 'routes/app/dashboard.tsx'),
    // The same screen under a second address.
    route('narrative', 'routes/app/dashboard.tsx', { id: 'routes/app/dashboard-narrative' }),
    // A member's own narratives; every narrative, for an administrator.
    route('admin/narratives', 'routes/app/narratives.tsx'),
    route('admin/narratives/:id', 'routes/app/narrative.tsx'),
    route('admin/narratives/:id/delete', 'routes/app/narrative-delete.tsx'),
    route('admin/narratives/:id/application', 'routes/app/narrative-application.tsx'),
    route('users', 'routes/app/users.tsx'),
    route('account', 'routes/app/account.tsx'),
    route('account/email', 'routes/app/account-email.tsx'),
    route('funders', 'routes/app/funders.tsx'),
    route('funders/:id', 'routes/app/funder.tsx'),
  ]),

  // The token API (docs/api.md).
  ...prefix('api', [
    route('narrative', 'routes/api/narratives.ts'),
    route('narrative/generate', 'routes/api/generate.ts'),
    route('narrative/check', 'routes/api/narrative-check.ts'),
    route('narrative/:id', 'routes/api/narrative.ts'),
    route('narrative/:id/docx', 'routes/api/narrative-download.ts'),
    route('narrative/:id/pdf', 'routes/api/narrative-download.ts', { id: 'routes/api/narrative-pdf' }),
    route('narrative/:id/versions', 'routes/api/narrative-versions.ts'),
    route('narrative/:id/versions/:versionId/restore', 'routes/api/narrative-version-restore.ts'),
    route('narrative/:id/variants', 'routes/api/narrative-variants.ts'),
    route('narrative/:id/application', 'routes/api/narrative-application.ts'),
    route('narrative/:id/application/questions/:index', 'routes/api/narrative-application-answer.ts'),
    route('narrative/:id/application/docx', 'routes/api/narrative-application-download.ts'),
    route('narrative/:id/application/pdf', 'routes/api/narrative-application-download.ts', { id: 'routes/api/narrative-application-pdf' }),
    route('funders', 'routes/api/funders.ts'),
    route('funders/extract', 'routes/api/funders-extract.ts'),
    route('funders/:id', 'routes/api/funder.ts'),
    route('*', 'routes/api/not-found.ts'),
  ]),
  ...prefix('auth', [
    index('routes/auth/users.ts'),
    route('users/:id', 'routes/auth/user.ts'),
    route('login', 'routes/auth/login.ts'),
    route('logout', 'routes/auth/logout.ts'),
    route('register', 'routes/auth/register.ts'),
    route('forgot-password', 'routes/auth/forgot-password.ts'),
    route('reset-password', 'routes/auth/reset-password.ts'),
    route('verify-reset-token', 'routes/auth/verify-reset-token.ts'),
    route('profile', 'routes/auth/profile.ts'),
    route('profile/calendar', 'routes/auth/profile-calendar.ts'),
    route('profile/email', 'routes/auth/profile-email.ts'),
    route('profile/email/confirm', 'routes/auth/profile-email-confirm.ts'),
    route('profile/export', 'routes/auth/profile-export.ts'),
    route('profile/password', 'routes/auth/profile-password.ts'),
    route('*', 'routes/auth/not-found.ts'),
  ]),

  // Resource routes: the pages' event streams and downloads, and the health check.
  ...prefix('resources', [
    route('healthcheck', 'routes/resources/healthcheck.ts'),
    route('generations/:id', 'routes/resources/generation-events.ts'),
    route('variants/:id', 'routes/resources/variant-events.ts'),
    route('narratives/:id/docx', 'routes/resources/narrative-download.ts'),
    route('narratives/:id/pdf', 'routes/resources/narrative-download.ts', { id: 'routes/resources/narrative-pdf' }),
    route('variants/:id/docx', 'routes/resources/variant-docx.ts'),
    route('narratives/:id/application/docx', 'routes/resources/application-download.ts'),
    route('narratives/:id/application/pdf', 'routes/resources/application-download.ts', { id: 'routes/resources/application-pdf' }),
    route('account/export', 'routes/resources/account-export.ts'),
    route('calendar/:feed', 'routes/resources/calendar.ts'),
    route('evidence-check', 'routes/resources/evidence-check.ts'),
  ]),

  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
