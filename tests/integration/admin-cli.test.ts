import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { prisma } from '~/server/platform/db.server'
import { resetDatabase } from '../setup/db'
import { makeUser } from '../setup/users'

const run = promisify(execFile)

beforeEach(resetDatabase)

/** What `npm run admin` runs: the command bundled by `npm run build`. */
async function admin(...args: string[]) {
  return run(process.execPath, ['build/cli/admin.js', ...args], { env: process.env }).then(
    (result) => ({ code: 0, ...result }),
    (error) => ({ code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string }),
  )
}

describe('npm run admin', () => {
  it('grants and revokes the administrator role by email', async () => {
    await makeUser()
    const member = await makeUser({ email: 'member@example.org' })
    expect((await admin('grant', 'MEMBER@example.org')).code).toBe(0)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.id } })).isAdmin).toBe(true)
    expect((await admin('revoke', 'member@example.org')).code).toBe(0)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.id } })).isAdmin).toBe(false)
  })

  it('fails clearly for an unknown email or a wrong command', async () => {
    const unknown = await admin('grant', 'ghost@example.org')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('No account with the email ghost@example.org.')
    const usage = await admin('promote', 'x@example.org')
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('Usage: npm run admin -- grant EMAIL | revoke EMAIL')
  })
})
