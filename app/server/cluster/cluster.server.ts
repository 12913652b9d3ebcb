import type { BusMessage, Cluster } from '~/server/cluster/contract.server'
import { createReplicas } from '~/server/cluster/replicas.server'
import { createSingle } from '~/server/cluster/single.server'
import { getEnv, type Env } from '~/server/platform/env.server'
import { errorDetails, log } from '~/server/platform/logger.server'

// The one topology switch (docs/decisions/046-one-topology-switch.md): modules ask `cluster()`, never the database.

let chosen: Cluster | undefined

/**
 * PostgreSQL is served by replicas, a SQLite file by one process (decision 044). Chosen once, at start-up or,
 * for a script or test, by the first module that asks.
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
