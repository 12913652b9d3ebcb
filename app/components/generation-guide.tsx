export function GenerationGuide() {
  return (
    <details className="guide" open>
      <summary>How to Create your Impact Narrative</summary>
      <ol>
        <li>
          <strong>Gather your materials.</strong> Pull together recent annual reports, grant reports and program data so your figures and
          dates are at hand.
        </li>
        <li>
          <strong>Talk with your staff, partners and clients.</strong> Ask for the stories and quotes that show what your work means to the
          people involved.
        </li>
        <li>
          <strong>Consider the key questions.</strong> Who do you serve, what has changed because of your work, and how do you know?
        </li>
        <li>
          <strong>Write it here.</strong> Fill in the form below, pick a tone and write your narrative. Then edit it until it sounds like
          you, and download it as a Word document or a PDF.
        </li>
      </ol>
    </details>
  )
}
