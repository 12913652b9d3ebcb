// Stops `npm start`, `npm run build` and `npm test` (their pre hooks in package.json) on a Node.js too old
// for the app, with one line that says what to do: left to run, Node 20 dies with a bare SIGSEGV inside
// `prisma migrate`. scripts/use-node.sh asks it too, so the floor lives in one place, package.json's
// `engines.node`. CommonJS in the syntax of Node.js 12 (no `?.`, `??` or `node:` modules): the Node.js it
// must parse on is precisely an old one.
'use strict'
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, for the reason above */
const fs = require('fs')
const path = require('path')

/** The lowest version `engines.node` allows, as [major, minor, patch]; only ">=X.Y.Z" is understood. */
function minimumOf(range) {
  const match = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(String(range).trim())
  if (!match) throw new Error(`scripts/check-node.cjs reads package.json's engines.node as ">=X.Y.Z", not ${JSON.stringify(range)}`)
  return match.slice(1).map(Number)
}

/** A version such as "22.22.0" or "v24.0.0-rc.1" as [major, minor, patch]. */
function partsOf(version) {
  return String(version)
    .replace(/^v/, '')
    .split('.')
    .slice(0, 3)
    .map((part) => parseInt(part, 10) || 0)
}

function isAtLeast(version, minimum) {
  const parts = partsOf(version)
  for (let i = 0; i < 3; i++) if (parts[i] !== minimum[i]) return parts[i] > minimum[i]
  return true
}

/** The requirement in the one wording README.md and scripts/use-node.sh use too. */
function requirement(range) {
  const minimum = minimumOf(range)
  const floor = minimum[2] === 0 ? minimum.slice(0, 2) : minimum
  return `Node.js 24 LTS (any Node.js from ${floor.join('.')} runs it)`
}

/** The line to print when `version` is older than `range` allows, or null when it will do. */
function problemWith(version, range) {
  if (isAtLeast(version, minimumOf(range))) return null
  return (
    `Impact Narrative Studio needs ${requirement(range)}, and this is Node.js ${String(version).replace(/^v/, '')}: ` +
    'run `source scripts/use-node.sh` to put Node.js 24 on PATH in this shell, then try again.'
  )
}

function engineRange() {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'))
  return pkg.engines.node
}

if (require.main === module) {
  const problem = problemWith(process.versions.node, engineRange())
  if (problem) {
    console.error(problem)
    process.exitCode = 1
  }
}

module.exports = { problemWith, requirement, engineRange }
