import { parse } from 'acorn'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'

// On a Node.js older than package.json's engines allow, `npm start`, `npm run build` and `npm test` stop
// before any work with one line that says what to do (scripts/check-node.cjs, their pre hooks); on this
// Node.js they go ahead without a word. Started on Node 20 without it, the app died with a bare SIGSEGV.

const SCRIPT = 'scripts/check-node.cjs'
const checkNode = createRequire(import.meta.url)(`../../${SCRIPT}`) as {
  problemWith(version: string, range: string): string | null
  requirement(range: string): string
  engineRange(): string
}
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string }; scripts: Record<string, string> }
const range = pkg.engines.node
// The logic is tested against a floor of its own, so that raising package.json's changes none of it.
const FLOOR = '>=22.22.0'

/** The machine's own node when it is older than 22 (Debian 12 machines here ship 20), judged without the
 * check itself: a check that let everything through must fail this test, not skip it. */
function machineOldNode(): { path: string; version: string } | null {
  const path = '/usr/bin/node'
  if (!fs.existsSync(path)) return null
  const version = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  return Number(version.split('.')[0]) < 22 ? { path, version } : null
}

function runCheck(node: string) {
  return spawnSync(node, [SCRIPT], { encoding: 'utf8' })
}

/** A file's prose as one line, whatever the wrapping. */
function prose(file: string) {
  return fs.readFileSync(file, 'utf8').replace(/\s*\n\s*(#\s*)?/g, ' ')
}

describe('the Node.js check before npm start, build and test', () => {
  it('reads its floor from package.json, and words it the one way', () => {
    expect(checkNode.engineRange()).toBe(range)
    expect(checkNode.requirement(FLOOR)).toBe('Node.js 24 LTS (any Node.js from 22.22 runs it)')
  })

  it.each(['20.20.2', '18.19.0', 'v22.9.0', '22.21.9', '12.22.12'])(
    'refuses Node.js %s in one line that says how to get a newer one',
    (version) => {
      const problem = checkNode.problemWith(version, FLOOR)
      expect(problem).toBe(
        `Impact Narrative Studio needs Node.js 24 LTS (any Node.js from 22.22 runs it), and this is Node.js ${version.replace(/^v/, '')}: ` +
          'run `source scripts/use-node.sh` to put Node.js 24 on PATH in this shell, then try again.',
      )
      expect(problem).not.toContain('\n')
    },
  )

  it.each(['22.22.0', 'v22.22.1', '22.23.0', '23.0.0', '24.0.0-rc.1', '24.21.0', '30.1.2'])('lets Node.js %s through', (version) => {
    expect(checkNode.problemWith(version, FLOOR)).toBeNull()
  })

  it('follows a floor with a patch level, and refuses an engines range it cannot read rather than guess', () => {
    expect(checkNode.problemWith('22.22.0', '>=22.22.1')).toContain('any Node.js from 22.22.1 runs it')
    expect(checkNode.problemWith('22.22.1', '>=22.22.1')).toBeNull()
    expect(() => checkNode.problemWith('24.0.0', '^22.22.0 || >=24')).toThrow(/engines\.node/)
  })

  it('passes without a word on the Node.js running the tests', () => {
    const run = runCheck(process.execPath)
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '', ''])
  })

  const oldNode = machineOldNode()
  // The in-process cases above run everywhere; this one needs the old node a Debian 12 machine has.
  it.runIf(oldNode)(`stops at once on the machine's own ${oldNode ? `Node.js ${oldNode.version}` : 'old Node.js'}`, () => {
    const run = runCheck(oldNode!.path)
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`${checkNode.problemWith(oldNode!.version, range)}\n`)
  })

  it('runs before npm start, npm run build and npm test', () => {
    for (const hook of ['prestart', 'prebuild', 'pretest']) expect(pkg.scripts[hook], hook).toBe(`node ${SCRIPT}`)
  })

  it('parses on Node.js 12, the syntax of ECMAScript 2019, as the old Node.js it has to stop must read it', () => {
    expect(() => parse(fs.readFileSync(SCRIPT, 'utf8'), { ecmaVersion: 2019, sourceType: 'script' })).not.toThrow()
  })

  it('states the requirement in the same words in README.md and scripts/use-node.sh, which asks it too', () => {
    const requirement = checkNode.requirement(range)
    expect(prose('README.md')).toContain(requirement)
    expect(prose('scripts/use-node.sh')).toContain(requirement)
    const useNode = fs.readFileSync('scripts/use-node.sh', 'utf8')
    expect(useNode).toContain('/check-node.cjs"')
    expect(useNode).toContain('node "$node_check"')
  })
})
