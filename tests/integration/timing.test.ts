import { InvalidCredentialsError, verifyLogin } from '~/server/accounts/auth.server'
import { resetDatabase } from '../setup/db'
import { makeUser } from '../setup/users'

beforeEach(resetDatabase)

// CPU time, not wall time: the work done is what must not differ, and a busy machine's wall clock
// measures the other processes too. argon2 runs on the thread pool, whose CPU the process counts.
async function timeLogin(email: string) {
  const start = process.cpuUsage()
  await expect(verifyLogin(email, 'not the right password')).rejects.toBeInstanceOf(InvalidCredentialsError)
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1e3
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

// Not a speed test: a check that an unknown email also pays for a full argon2 verification, so the
// answer's timing does not reveal which accounts exist. Alternating samples keep noise even.
it('takes about as long for an unknown email as for a wrong password', async () => {
  await makeUser({ email: 'known@example.org' })
  await timeLogin('known@example.org') // warm-up: the dummy hash is made on first use
  const known: number[] = []
  const unknown: number[] = []
  for (let i = 0; i < 7; i++) {
    known.push(await timeLogin('known@example.org'))
    unknown.push(await timeLogin(`nobody${i}@example.org`))
  }
  const ratio = median(unknown) / median(known)
  expect(ratio).toBeGreaterThan(0.5)
  expect(ratio).toBeLessThan(2)
})
