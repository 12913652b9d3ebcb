import { useEffect, useRef, type KeyboardEvent } from 'react'
import { Form, Link, NavLink, useLocation } from 'react-router'
import { forgetSavedForms } from '~/hooks/use-saved-form'

type HeaderUser = { name: string; email: string; isAdmin: boolean } | null

export function SiteHeader({ user }: { user: HeaderUser }) {
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            IN
          </span>
          <span className="brand-name">Impact Narrative Studio</span>
        </Link>
        {user ? <SignedInNav user={user} /> : null}
      </div>
    </header>
  )
}

function SignedInNav({ user }: { user: NonNullable<HeaderUser> }) {
  return (
    <nav aria-label="Main" className="site-nav">
      <ul>
        <li>
          <NavLink to="/dashboard">Create Narrative</NavLink>
        </li>
        <li>
          <NavLink to="/admin/narratives">Narratives</NavLink>
        </li>
        <li>
          <NavLink to="/funders">Funders</NavLink>
        </li>
        {user.isAdmin ? (
          <li>
            <NavLink to="/users">Manage Users</NavLink>
          </li>
        ) : null}
      </ul>
      <UserMenu name={user.name} email={user.email} />
    </nav>
  )
}

// A <details> menu opens and closes without JavaScript (with it, Escape and leaving the page close it
// too); Logout is a real POST form, which first forgets this browser's unsaved narrative form.
function UserMenu({ name, email }: { name: string; email: string }) {
  const label = name || email || 'User'
  const menu = useRef<HTMLDetailsElement>(null)
  const { key } = useLocation()
  useEffect(() => {
    if (menu.current) menu.current.open = false
  }, [key])
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- details is interactive: Escape closes it
    <details ref={menu} className="user-menu" onKeyDown={closeOnEscape}>
      <summary>
        <span className="user-avatar" aria-hidden="true">
          {label.charAt(0).toUpperCase()}
        </span>
        <span className="user-name">{label}</span>
      </summary>
      <div className="user-menu-panel">
        <p className="user-menu-who">
          {name ? <strong>{name}</strong> : null}
          {email}
        </p>
        <Link to="/account" className="button button-secondary button-block user-menu-link">
          Account
        </Link>
        <Form method="post" action="/logout" onSubmit={forgetSavedForms}>
          <button type="submit" className="button button-secondary button-block">
            Logout
          </button>
        </Form>
      </div>
    </details>
  )
}

function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  const menu = event.currentTarget
  if (event.key !== 'Escape' || !menu.open) return
  menu.open = false
  menu.querySelector('summary')?.focus()
}
