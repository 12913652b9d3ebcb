import type { MetaFunction } from 'react-router'
import { Link } from 'react-router'
import { LegalPage, LegalSection } from '~/components/legal-page'
import { useContactEmail } from '~/hooks/use-root-data'

export const meta: MetaFunction = () => [
  { title: 'Terms of Service | Impact Narrative Studio' },
  {
    name: 'description',
    content: 'The terms for using Impact Narrative Studio: your account, your content and the narratives written for you.',
  },
]

export default function TermsOfService() {
  const contactEmail = useContactEmail()
  return (
    <LegalPage title="Terms of Service" updated="March 31, 2025">
      <p>
        Impact Narrative Studio helps non-profits and companies turn what they do into a clear, readable impact narrative. It is self-hosted
        software: in these terms, &quot;we&quot; and &quot;us&quot; mean the organisation that runs this installation, and &quot;you&quot;
        means the person using it.
      </p>

      <LegalSection number={1} title="Acceptance of these terms">
        <p>
          By creating an account or using the service you agree to these terms and to our <Link to="/privacy-policy">Privacy Policy</Link>.
          If you use it on behalf of an organisation, you confirm that you are allowed to accept these terms for it. If you do not agree,
          please do not use the service.
        </p>
        <p>
          We may update these terms from time to time. The date at the top of this page shows the latest version; continuing to use the
          service after a change means you accept the new terms.
        </p>
      </LegalSection>

      <LegalSection number={2} title="The service">
        <p>
          You describe your organisation (its mission, the people it serves, where it works, its activities and achievements) and choose a
          tone; the service drafts a narrative of about 300 to 400 words that you can save, edit, download as a Word document and delete.
        </p>
        <p>
          Drafts are written either by a language-model provider that we have configured or, when none is configured, by a built-in drafter
          that runs entirely on our server. Each account can generate a limited number of narratives per day. We may change, pause or retire
          features, and we do not promise that the service will always be available or free of errors.
        </p>
      </LegalSection>

      <LegalSection number={3} title="Accounts, security and email">
        <p>
          Give accurate details when you sign up and keep your password to yourself. You are responsible for what happens under your
          account, so tell us promptly at the address below if you think someone else has used it. One account is for one person.
        </p>
        <p>
          We send service emails, such as password-reset links, whenever they are needed. Marketing email is different: you only receive it
          if you opt in, and you can withdraw that consent at any time. The <Link to="/email-consent">Email Marketing Consent</Link> page
          explains how.
        </p>
      </LegalSection>

      <LegalSection number={4} title="Acceptable use">
        <p>Please use the service fairly and lawfully. In particular, do not:</p>
        <ul>
          <li>enter content you have no right to use, or that is unlawful, defamatory or hateful;</li>
          <li>use it to produce deliberately false or misleading claims about an organisation&apos;s impact;</li>
          <li>try to get around the daily limits, access other people&apos;s accounts or narratives, or probe and disrupt the service;</li>
          <li>resell or share access to the service without our permission.</li>
        </ul>
      </LegalSection>

      <LegalSection number={5} title="Your content and generated content">
        <p>
          What you enter stays yours. The narratives generated for you are yours too: you own them and may use, edit, publish and share them
          however you like. We claim no ownership of either.
        </p>
        <p>
          To run the service you give us permission to store, process and display your content and to send it to the configured
          language-model provider, only so that we can generate, save and show your narratives. The{' '}
          <Link to="/copyright-policy">Copyright and IP Notice</Link> describes this permission in more detail.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Our intellectual property">
        <p>
          We (or our licensors) own the tool itself: the software, its design, its templates and the Impact Narrative Studio name and brand.
          These terms let you use the tool; they do not transfer any of it to you. Please do not copy, rebrand or reverse engineer it except
          as the law or the software&apos;s own licence allows.
        </p>
      </LegalSection>

      <LegalSection number={7} title="AI-generated content">
        <p>
          Generated narratives are drafts. They can contain mistakes, overstate results or phrase things in ways you did not intend. Always
          review and check a narrative before you use it, especially any figures or claims about impact. You are responsible for what you
          publish or submit.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Limitation of liability and termination">
        <p>
          The service is provided &quot;as is&quot;. As far as the law allows, we are not liable for indirect or consequential losses, lost
          funding or lost data arising from your use of it. Keep your own copies of narratives that matter to you.
        </p>
        <p>
          You may stop using the service at any time and ask us to delete your account. We may suspend or close an account that breaks these
          terms, and we will try to tell you why.
        </p>
      </LegalSection>

      <LegalSection title="Governing Law">
        <p>
          These terms are governed by the laws of the State of California, as applied in San Francisco. Any dispute arising from them or
          from the service will be resolved by binding arbitration in San Francisco under the rules of the American Arbitration Association.
        </p>
      </LegalSection>

      <LegalSection title="Contact">
        <p>
          Questions about these terms? Write to us at <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
        </p>
      </LegalSection>
    </LegalPage>
  )
}
