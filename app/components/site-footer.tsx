import { Link } from 'react-router'

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <p>© {new Date().getFullYear()} Impact Narrative Studio. All rights reserved.</p>
        <nav aria-label="Legal">
          <ul>
            <li>
              <Link to="/terms">Terms of Service</Link>
            </li>
            <li>
              <Link to="/privacy-policy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/copyright-policy">Copyright Policy</Link>
            </li>
            <li>
              <Link to="/email-consent">Email Consent</Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  )
}
