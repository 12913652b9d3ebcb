import type { MetaFunction } from 'react-router'
import { Link } from 'react-router'
import { LegalPage, LegalSection } from '~/components/legal-page'
import { useContactEmail } from '~/hooks/use-root-data'

export const meta: MetaFunction = () => [
  { title: 'Copyright and IP Notice | Impact Narrative Studio' },
  {
    name: 'description',
    content: 'Who owns what in Impact Narrative Studio: the tool, your content and your generated narratives.',
  },
]

export default function CopyrightPolicy() {
  const contactEmail = useContactEmail()
  return (
    <LegalPage title="Copyright and IP Notice" updated="March 31, 2025">
      <p>
        This notice sets out who owns what in Impact Narrative Studio. &quot;We&quot; means the organisation that runs this installation. It
        sits alongside our <Link to="/terms">Terms of Service</Link>.
      </p>

      <LegalSection title="The tool is ours">
        <p>
          We (or our licensors) own Impact Narrative Studio itself: the software, its design and layout, its templates and prompts, and its
          name and brand. You may use the tool as the Terms of Service allow, but you may not copy, rebrand or redistribute it except where
          the law or the software&apos;s own licence permits.
        </p>
      </LegalSection>

      <LegalSection title="Your content is yours">
        <p>
          Everything you enter, such as your organisation&apos;s mission, programmes, results and contact details, remains yours. We claim
          no ownership of it.
        </p>
      </LegalSection>

      <LegalSection title="Generated narratives are yours">
        <p>
          The narratives generated for you belong to you, including any edits you make. You may publish, adapt and share them, for example
          in grant applications, reports and on your website, without crediting us. Please review each one before you use it.
        </p>
      </LegalSection>

      <LegalSection title="The licence we need">
        <p>
          So that the service can work, you give us a limited, non-exclusive permission to store, copy, process and display your content and
          narratives, and to send your inputs to the configured language-model provider, only to generate, save, show and let you download
          your narratives. This permission ends when you delete the content or your account, apart from copies in routine backups that are
          removed over time.
        </p>
      </LegalSection>

      <LegalSection title="Reporting infringement">
        <p>If you believe content in this service infringes your copyright or other rights, email us with:</p>
        <ul>
          <li>your name and how to reach you;</li>
          <li>the work you believe is being infringed;</li>
          <li>where the material appears in the service, with enough detail for us to find it;</li>
          <li>a statement that you believe in good faith the use is not authorised, and that your notice is accurate.</li>
        </ul>
        <p>We will look into every complete report and remove material that infringes.</p>
      </LegalSection>

      <LegalSection title="Contact">
        <p>
          Send copyright questions and reports to <a href={`mailto:${contactEmail}`}>{contactEmail}</a>.
        </p>
      </LegalSection>
    </LegalPage>
  )
}
