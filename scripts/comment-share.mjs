// Part of `npm run lint`: the app's comments stay at most 7% of its lines (blank, comment and code, as
// cloc counts them), so that what a comment says is why, and the code says what.
import { execFileSync } from 'node:child_process'

const MAX_PERCENT = 7
const counted = JSON.parse(
  execFileSync('npx', ['--no-install', 'cloc', '--quiet', '--json', '--exclude-dir=generated', 'app'], { encoding: 'utf8' }),
)
const { blank, comment, code } = counted.SUM
const share = comment / (blank + comment + code)
const line = `Comments are ${(share * 100).toFixed(2)}% of app/'s lines (${comment} of ${blank + comment + code}); at most ${MAX_PERCENT}%.`
if (share * 100 > MAX_PERCENT) {
  console.error(`${line} Remove the comments that say what the code already says.`)
  process.exit(1)
}
console.log(line)
