type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>

/**
 * Waits for an event rather than for time: checks `condition` every `intervalMs` and resolves with its
 * first truthy value. A busy machine only makes the wait longer; at `timeoutMs` (generous: it is reached
 * only when the event never comes) it fails, saying what it waited for and, from `details`, what it saw.
 * An error the condition throws ends the wait with that error.
 *
 * The one polling helper of the tests (the log, app-server and nginx helpers wait with it too).
 */
export async function until<T>(
  condition: () => T | Promise<T>,
  {
    what = 'the condition',
    timeoutMs = 10_000,
    intervalMs = 20,
    details,
  }: { what?: string; timeoutMs?: number; intervalMs?: number; details?: () => string } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await condition()
    if (value) return value as Truthy<T>
    if (Date.now() >= deadline) {
      throw new Error(`Waited ${timeoutMs} ms for ${what}, in vain${details ? `:\n${details()}` : ''}`)
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
