import type { BusMessage, Cluster } from '~/server/cluster/contract.server'
import { createReplicas } from '~/server/cluster/replicas.server'
import { createSingle } from '~/server/cluster/single.server'
import { getEnv, type Env } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'

// The one topology switch (docs/decisions/046-one-topology-switch.md): one process, or replicas that
// share what they must. The modules that count limits and streams, talk to other replicas and recover
// their generations ask `cluster()`, never which database there is.

let chosen: Cluster | undefined

/**
 * The one place the topology is chosen, from the configuration: several processes need a database they
 * can share, so a PostgreSQL database is served by replicas and a SQLite file by one process (decision
 * 044). Start-up chooses (main/start.server.ts); a script or a test that starts no server gets the same
 * choice from the first module that asks. Chosen once: later calls return the first choice.
 */
export function chooseCluster({ database }: Pick<Env, 'database'> = getEnv()): Cluster {
  chosen ??= database.kind === 'postgres' ? createReplicas(database.url, deliver) : createSingle()
  return chosen
}

export function cluster(): Cluster {
  return chosen ?? chooseCluster()
}

/** To one replica, or to every other one (decision 038); one process alone has no one to tell. */
export function publish(message: BusMessage, to?: string) {
  cluster().bus.publish(message, to)
}

type Handler = (message: BusMessage) => void
const handlers = new Map<string, Set<Handler>>()

/** Calls `handler` with each message of that type another replica publishes. */
export function onBusMessage(type: string, handler: Handler) {
  let set = handlers.get(type)
  if (!set) handlers.set(type, (set = new Set()))
  set.add(handler)
  return () => void set.delete(handler)
}

function deliver(message: BusMessage) {
  for (const handler of handlers.get(message.type) ?? []) {
    try {
      handler(message)
    } catch (error) {
      log('error', 'bus.handler_failed', { type: message.type, ...errorDetails(error) })
    }
  }
}
