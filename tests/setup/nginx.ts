import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './postgres'
import { until } from './until'

// Debian's nginx (nginx-light) in front of app processes on loopback, with the site configuration an
// operator uses (deploy/nginx.conf, which compose.yaml mounts): only the replicas' addresses and the
// port it listens on differ.

export const NGINX = '/usr/sbin/nginx'
const SITE = 'deploy/nginx.conf'

export type Nginx = { origin: string; errorLog(): string; stop(): Promise<void> }

/** The site's configuration with its upstream servers replaced by these loopback ports. */
export function siteFor(appPorts: number[], port: number) {
  const site = fs.readFileSync(SITE, 'utf8')
  const servers = appPorts.map((appPort) => `    server 127.0.0.1:${appPort};`).join('\n')
  const withServers = site.replace(/(?:^\s*server app\d+:3000;\n)+/m, `${servers}\n`)
  if (withServers === site || !/^\s*listen 80;$/m.test(site))
    throw new Error(`${SITE} no longer has the upstream servers and listen line this test replaces`)
  return withServers.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`)
}

export async function startNginx(appPorts: number[]): Promise<Nginx> {
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-'))
  // Its workers run as nobody when started by root: they write their temporary files here.
  fs.chmodSync(dir, 0o777)
  fs.writeFileSync(path.join(dir, 'site.conf'), siteFor(appPorts, port))
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${dir}/${kind};`).join(' ')
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log; worker_rlimit_nofile 8192;
events { worker_connections 4096; }
http { access_log off; ${temp} include ${dir}/site.conf; }
`,
  )
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const origin = `http://127.0.0.1:${port}`
  const errorLog = () => (fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '')
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited as it started:\n${errorLog()}`)
      return fetch(`${origin}/resources/healthcheck`).then(
        (response) => response.ok,
        () => false,
      )
    },
    { what: 'nginx to answer', details: errorLog },
  )
  return {
    origin,
    errorLog,
    async stop() {
      child.kill('SIGQUIT')
      await exited
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}
