import type { MetaFunction } from 'react-router'
import { Link } from 'react-router'
import { LegalPage, LegalSection } from '~/components/legal-page'
import { useContactEmail } from '~/hooks/use-root-data'

export const meta: MetaFunction = () => [
  { title: 'Email Marketing Consent | Impact Narrative Studio' },
  {
    name: 'description',
    content: 'How marketing email from Impact Narrative Studio works: opt-in only, and you can withdraw at any time.',
  },
]

export default function EmailConsent() {
  const contactEmail = useContactEmail()
  return (
    <LegalPage title="Email Marketing Consent" updated="March 31, 2025">
      <p>
        This page explains when the organisation running this Impact Narrative Studio installation (&quot;we&quot;) may send you marketing
        email, and how to stop it.
      </p>

      <LegalSection title="Opt-in only">
        <p>
          We send marketing email only if you ask for it, by ticking the marketing box when you{' '}
          <Link to="/signup">create your account</Link>. The box is never ticked for you, and leaving it empty does not affect your use of
          the service in any way.
        </p>
      </LegalSection>

      <LegalSection title="How often">
        <p>Typically not more than once per week, and often less.</p>
      </LegalSection>

      <LegalSection title="What the emails contain">
        <p>
          News about Impact Narrative Studio, new features, tips for writing stronger impact narratives and, occasionally, events or
          resources we think are useful to organisations like yours.
        </p>
      </LegalSection>

      <LegalSection title="Withdrawing consent">
        <p>You can change your mind at any time, free of charge:</p>
        <ul>
          <li>use the unsubscribe link included in every marketing email, or</li>
          <li>write to us at the contact address below and ask to stop.</li>
        </ul>
        <p>We act on your request promptly, and withdrawing does not affect your account.</p>
      </LegalSection>

      <LegalSection title="Service emails">
        <p>
          Some emails are not marketing: for example password-reset links and important notices about your account or the service. We always
          send these when they are needed, whatever your marketing choice.
        </p>
      </LegalSection>

      <LegalSection title="Contact">
        <p>
          To withdraw consent or ask a question, write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a>. See also our{' '}
          <Link to="/privacy-policy">Privacy Policy</Link>.
        </p>
      </LegalSection>
    </LegalPage>
  )
}
