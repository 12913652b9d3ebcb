// npm run admin -- grant EMAIL | revoke EMAIL
import { prisma } from '~/server/platform/db.server'
import { setAdmin } from '~/server/accounts/users.server'

const USAGE = 'Usage: npm run admin -- grant EMAIL | revoke EMAIL'

async function main([command, email]: string[]) {
  if (!email || (command !== 'grant' && command !== 'revoke')) {
    console.error(USAGE)
    return 2
  }
  const changed = await setAdmin(email, command === 'grant')
  if (!changed) {
    console.error(`No account with the email ${email}.`)
    return 1
  }
  console.log(command === 'grant' ? `${email} is now an administrator.` : `${email} is no longer an administrator.`)
  return 0
}

process.exitCode = await main(process.argv.slice(2))
await prisma.$disconnect()
