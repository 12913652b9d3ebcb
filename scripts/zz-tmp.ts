import { inflatingPdf } from './hostile/call-files'
import { readCallFile } from '~/server/funders/call-file.server'
const bytes = inflatingPdf()
const rss = () => Math.round(process.memoryUsage.rss() / 1048576)
for (let i = 0; i < 3; i++) {
  try { await readCallFile(new File([new Uint8Array(bytes)], 'call.pdf'), { person: 'x' + i }) } catch (e: any) { console.log(e.status, e.message.slice(0, 40)) }
  console.log('after', rss()); await new Promise((r) => setTimeout(r, 1000)); console.log('1s later', rss())
}
