import crypto from 'node:crypto'
import pg from 'pg'
import type { BusMessage } from '~/server/cluster/contract.server'
import { postgresPoolConfig } from '~/server/platform/database-adapters.server'
import { getEnv } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'

// Messages between replicas over PostgreSQL's LISTEN/NOTIFY (decision 038): a channel per replica and
// one shared. replicas.server.ts connects it; a single process never does.

const BROADCAST = 'studio'
// NOTIFY takes under 8,000 bytes; 1,800 UTF-16 units are at most 5,400 bytes of UTF-8, escapes included.
const PART_CHARS = 1_800
// Messages wait here while the database is slow or being reconnected to; past this, the oldest go.
const OUTBOX_MAX = 50_000
const RECONNECT_MS = 1_000
const PING_MS = 10_000
const QUERY_TIMEOUT_MS = 10_000
/** A sender's parts not yet whole are kept for this many senders at most (a replica that died mid-message). */
const PARTIAL_SENDERS_MAX = 100
// A signed message is good for this long from its publishing, waiting in the outbox included: a replayed
// or long-delayed one is dropped. Replicas' clocks must agree to within it.
export const MESSAGE_LIFETIME_MS = 30_000
// Refused notifications are counted and logged at most this often, so a flood of forgeries is one line.
const REFUSALS_LOG_MS = 60_000

let replicaId = ''
let databaseUrl = ''
/** Where each whole message from another replica goes. */
let deliver: (message: BusMessage) => void = () => {}
let client: pg.Client | null = null
let closing = false
let outbox: { channel: string; payload: string; at: number }[] = []
let sending: Promise<void> | null = null
let pinger: NodeJS.Timeout | undefined
/** When this replica's connection last heard a notification, its own pings included. */
let heardAt = 0
// Within one transaction PostgreSQL delivers identical payloads once: each payload is numbered.
let sent = 0

export function channelOf(replica: string) {
  return `studio_${replica.replaceAll('-', '')}`
}

/** In the order published; kept while the connection is down (up to OUTBOX_MAX), never before it connects. */
export function publish(message: BusMessage, to?: string) {
  if (!replicaId) return
  const channel = to ? channelOf(to) : BROADCAST
  const at = Date.now()
  const keys = busKeys()
  for (const payload of toPayloads(message, replicaId, () => ++sent, { keys, at })) outbox.push({ channel, payload, at })
  if (outbox.length > OUTBOX_MAX) {
    log('error', 'bus.outbox_full', { dropped: outbox.length - OUTBOX_MAX })
    outbox = outbox.slice(-OUTBOX_MAX)
  }
  void flush()
}

/** Joins the bus as `replica`, over a connection of its own to the database at `url`; hands `receiver` each message. */
export async function connectBus(replica: string, url: string, receiver: (message: BusMessage) => void) {
  replicaId = replica
  databaseUrl = url
  deliver = receiver
  closing = false
  const next = new pg.Client({
    ...postgresPoolConfig(url),
    application_name: 'impact-narrative-studio-bus',
    keepAlive: true,
    query_timeout: QUERY_TIMEOUT_MS,
  })
  next.on('notification', (notification) => receive(notification.channel, notification.payload ?? ''))
  next.on('error', (error) => reconnect(next, error))
  try {
    await next.connect()
    await next.query(`LISTEN ${BROADCAST}`)
    await next.query(`LISTEN ${channelOf(replica)}`)
  } catch (error) {
    await next.end().catch(() => {})
    throw error
  }
  client = next
  heardAt = Date.now()
  clearInterval(pinger)
  pinger = setInterval(checkConnection, PING_MS).unref()
  void flush()
}

export async function disconnectBus() {
  closing = true
  clearInterval(pinger)
  await flush()
  const last = client
  client = null
  await last?.end().catch(() => {})
}

/** A connection a firewall or failover dropped silently never errors: each replica pings itself instead. */
function checkConnection() {
  if (!client) return
  if (Date.now() - heardAt > 3 * PING_MS) return reconnect(client, new Error('The bus heard nothing back from the database'))
  publish({ type: 'ping' }, replicaId)
}

function reconnect(broken: pg.Client, error: Error) {
  if (client !== broken) return
  client = null
  log('error', 'bus.disconnected', errorDetails(error))
  void broken.end().catch(() => {})
  if (closing) return
  const retry = () => connectBus(replicaId, databaseUrl, deliver).catch(() => setTimeout(retry, RECONNECT_MS).unref())
  setTimeout(retry, RECONNECT_MS).unref()
}

/** One statement at a time, so the notifications go out in the order they were published. */
function flush(): Promise<void> {
  sending ??= sendWaiting().finally(() => {
    sending = null
    if (client && outbox.length) void flush()
  })
  return sending
}

async function sendWaiting() {
  try {
    while (client && outbox.length) {
      const batch = dropExpired(outbox.splice(0, 500))
      if (!batch.length) continue
      await client.query('SELECT pg_notify(channel, payload) FROM unnest($1::text[], $2::text[]) AS m(channel, payload)', [
        batch.map((message) => message.channel),
        batch.map((message) => message.payload),
      ])
    }
  } catch (error) {
    log('error', 'bus.send_failed', errorDetails(error))
  }
}

/** What waited in the outbox past its lifetime would be refused by every receiver: it is not sent. */
function dropExpired(batch: typeof outbox) {
  const now = Date.now()
  const fresh = batch.filter((message) => now - message.at < MESSAGE_LIFETIME_MS)
  if (fresh.length < batch.length) log('warn', 'bus.expired_unsent', { dropped: batch.length - fresh.length })
  return fresh
}

/** Any role that can connect can NOTIFY: payloads are signed with keys from the session secrets (decision 038). */
export type BusKeys = Buffer[]

export function deriveBusKeys(secrets: string[]): BusKeys {
  return secrets.map((secret) => crypto.createHmac('sha256', secret).update('impact-narrative-studio:bus').digest())
}

let cachedKeys: { secrets: string[]; keys: BusKeys } | undefined

function busKeys(): BusKeys {
  const secrets = getEnv().sessionSecrets
  if (cachedKeys?.secrets !== secrets) cachedKeys = { secrets, keys: deriveBusKeys(secrets) }
  return cachedKeys.keys
}

const sign = (key: Buffer, body: string) => crypto.createHmac('sha256', key).update(body).digest('base64url')

/** `n` numbers every payload a sender sends; `m` is the number of its message's first; `t` when it was published. */
type Envelope = { from: string; n: number; m: number; part: number; parts: number; t: number; data: string }

/** A message as the signed payloads of its notifications, each under NOTIFY's 8,000 bytes: `signature.envelope`. */
export function toPayloads(message: BusMessage, from: string, number: () => number, { keys, at }: { keys: BusKeys; at: number }): string[] {
  const data = JSON.stringify(message)
  const parts = Math.max(1, Math.ceil(data.length / PART_CHARS))
  const numbers = Array.from({ length: parts }, number)
  return numbers.map((n, part) => {
    const envelope: Envelope = { from, n, m: numbers[0], part, parts, t: at, data: data.slice(part * PART_CHARS, (part + 1) * PART_CHARS) }
    const body = JSON.stringify(envelope)
    return `${sign(keys[0], body)}.${body}`
  })
}

export type Refusal = 'unsigned' | 'bad-signature' | 'expired' | 'replayed' | 'unreadable'

/** The envelope of a payload signed with one of `keys` within MESSAGE_LIFETIME_MS, or why it is refused. */
export function openPayload(payload: string, keys: BusKeys, now = Date.now()): Envelope | Refusal {
  const dot = payload.indexOf('.')
  if (dot < 1) return 'unsigned'
  const given = Buffer.from(payload.slice(0, dot), 'base64url')
  const body = payload.slice(dot + 1)
  const signedBy = keys.some((key) => {
    const expected = crypto.createHmac('sha256', key).update(body).digest()
    return given.length === expected.length && crypto.timingSafeEqual(given, expected)
  })
  if (!signedBy) return 'bad-signature'
  let envelope: Envelope
  try {
    envelope = JSON.parse(body) as Envelope
  } catch {
    return 'unreadable'
  }
  if (typeof envelope.t !== 'number' || Math.abs(now - envelope.t) >= MESSAGE_LIFETIME_MS) return 'expired'
  return envelope
}

/**
 * Joins each sender's parts (they arrive in order). A message missing a part is dropped, never joined to
 * the next; a payload numbered no later than the sender's last (a replay within its lifetime) is refused.
 */
export function createAssembler() {
  const partial = new Map<string, { m: number; chunks: string[] }>()
  const lastNumber = new Map<string, number>()
  return (envelope: Envelope): BusMessage | 'replayed' | null => {
    const { from, n, m, part, parts, data } = envelope
    if (n <= (lastNumber.get(from) ?? 0)) return 'replayed'
    lastNumber.delete(from)
    lastNumber.set(from, n)
    if (lastNumber.size > SENDERS_REMEMBERED) lastNumber.delete(lastNumber.keys().next().value!)
    if (part === 0) partial.delete(from)
    const pending = part === 0 ? { m, chunks: [] } : partial.get(from)
    if (!pending || pending.m !== m || pending.chunks.length !== part) {
      partial.delete(from)
      return null
    }
    pending.chunks.push(data)
    if (pending.chunks.length < parts) {
      partial.set(from, pending)
      if (partial.size > PARTIAL_SENDERS_MAX) partial.delete(partial.keys().next().value!)
      return null
    }
    partial.delete(from)
    return JSON.parse(pending.chunks.join('')) as BusMessage
  }
}

// Each replica's id is new at every start, so senders come and go; a forgotten sender's old payloads are
// expired long before it is forgotten.
const SENDERS_REMEMBERED = 1_000

const assemble = createAssembler()
const refusals = { count: 0, loggedAt: 0, reasons: {} as Partial<Record<Refusal, number>> }

function refuse(channel: string, reason: Refusal) {
  refusals.count++
  refusals.reasons[reason] = (refusals.reasons[reason] ?? 0) + 1
  const now = Date.now()
  if (now - refusals.loggedAt < REFUSALS_LOG_MS) return
  log('warn', 'bus.refused', { channel, count: refusals.count, reasons: refusals.reasons })
  Object.assign(refusals, { count: 0, loggedAt: now, reasons: {} })
}

function receive(channel: string, payload: string) {
  heardAt = Date.now()
  const envelope = openPayload(payload, busKeys())
  if (typeof envelope === 'string') return refuse(channel, envelope)
  // A broadcast reaches its sender too, and a ping is only heard.
  if (envelope.from === replicaId) return
  let message: BusMessage | 'replayed' | null
  try {
    message = assemble(envelope)
  } catch {
    return refuse(channel, 'unreadable')
  }
  if (message === 'replayed') return refuse(channel, 'replayed')
  if (!message) return
  deliver(message)
}
