import type { MetaFunction } from 'react-router'
import { Link } from 'react-router'
import { LegalPage, LegalSection } from '~/components/legal-page'
import { useContactEmail } from '~/hooks/use-root-data'

export const meta: MetaFunction = () => [
  { title: 'Privacy Policy | Impact Narrative Studio' },
  {
    name: 'description',
    content: 'What Impact Narrative Studio collects, why, who it is shared with and how to have it deleted.',
  },
]

export default function PrivacyPolicy() {
  const contactEmail = useContactEmail()
  return (
    <LegalPage title="Privacy Policy" updated="March 31, 2025">
      <p>
        This policy explains what information Impact Narrative Studio keeps about you and what happens to it. The software is self-hosted:
        &quot;we&quot; means the organisation that runs this installation, and your data is stored on the server it operates.
      </p>

      <LegalSection title="What we collect">
        <ul>
          <li>
            <strong>Account details:</strong> your name, email address, a securely hashed version of your password (never the password
            itself) and whether you agreed to marketing email.
          </li>
          <li>
            <strong>Organisation information:</strong> what you enter in the narrative form, such as your organisation&apos;s name,
            contacts, mission, programmes, results and chosen tone.
          </li>
          <li>
            <strong>Generated narratives:</strong> the text written for you, your edits, and which engine wrote it.
          </li>
          <li>
            <strong>Basic logs:</strong> technical records such as sign-ins, password resets, errors and request identifiers, used to keep
            the service running and secure.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Why we use it">
        <p>
          We use this information to run your account, generate and store your narratives, apply the daily generation limit, send service
          emails such as password resets, protect the service against abuse and fix problems. If you opted in, we also use your email
          address for occasional marketing email.
        </p>
      </LegalSection>

      <LegalSection title="Language-model providers">
        <p>
          When you generate a narrative, the details you entered are sent to the language-model provider this installation is configured to
          use, only so that it can write the text. When no provider is configured, the narrative is written by a built-in offline drafter
          and nothing leaves our server. Ask us at the address below which provider, if any, is in use.
        </p>
      </LegalSection>

      <LegalSection title="Sharing">
        <p>
          We do not sell your data, rent it or use it for advertising. Besides the language-model provider above, we share it only with
          services that help us run the tool (such as our email delivery service) or when the law requires us to.
        </p>
      </LegalSection>

      <LegalSection title="Cookies">
        <p>We use two cookies, and no tracking or analytics cookies:</p>
        <ul>
          <li>an essential session cookie that keeps you signed in; it holds only a signed, random identifier;</li>
          <li>
            a short-lived notification cookie that carries a one-time message (such as &quot;Narrative saved&quot;) to the next page you
            see.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Retention and deletion">
        <p>
          Your narratives stay until you delete them; you can delete any of them yourself at any time. Your account stays until you ask us
          to delete it: write to the address below and we will remove the account together with its narratives. Logs are kept only as long
          as needed for security and troubleshooting.
        </p>
      </LegalSection>

      <LegalSection title="Security">
        <p>
          Passwords are stored only as strong one-way hashes, sessions are protected cookies, reset links expire after 30 minutes and can be
          used once. Other users cannot see your narratives; only the administrators of this installation can, in order to run it. No system
          is perfectly secure, so please use a password you do not use anywhere else.
        </p>
      </LegalSection>

      <LegalSection title="Your rights">
        <p>
          You can ask us for a copy of your information, to correct it, or to delete it, and you can withdraw marketing consent at any time
          (see <Link to="/email-consent">Email Marketing Consent</Link>). Depending on where you live you may have further rights under
          local law, including the right to complain to a data-protection authority.
        </p>
      </LegalSection>

      <LegalSection title="Contact">
        <p>
          For any privacy question or request, write to <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
        </p>
      </LegalSection>
    </LegalPage>
  )
}
