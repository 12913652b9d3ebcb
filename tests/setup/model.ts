import { resetEnvForTests } from '~/server/platform/env.server'
import { resetEngineForTests } from '~/server/generation/engines/engine.server'
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from '../fixtures/fake-openai'

/** Points the app at a fresh fake OpenAI-compatible server for this test file. */
export async function useFakeModel(options: FakeOpenAIOptions & { timeoutMs?: number } = {}): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI({ firstTokenDelayMs: 20, pieceIntervalMs: 1, ...options })
  configureModel({ OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: 'test-key', OPENAI_TIMEOUT_MS: String(options.timeoutMs ?? 1000) })
  return fake
}

/** How long the app waits on the model before giving up. */
export function setModelTimeout(ms: number) {
  process.env.OPENAI_TIMEOUT_MS = String(ms)
  resetEnvForTests()
  resetEngineForTests()
}

/** Back to no model at all: the offline drafter. */
export function useOfflineDrafter() {
  configureModel({})
}

function configureModel(values: Record<string, string>) {
  for (const key of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_TIMEOUT_MS', 'OPENAI_MODEL']) delete process.env[key]
  Object.assign(process.env, values)
  resetEnvForTests()
  resetEngineForTests()
}
