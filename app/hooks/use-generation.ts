import { useEffect, useRef, useState } from 'react'
import type { FinishedStatus, StreamStatus } from '~/shared/generation-status'

export type { FinishedStatus, StreamStatus }

/** `note` says why the text started over, or why it failed. */
export type GenerationState = { text: string; status: StreamStatus; note?: string }

/** As the page's loader read it: the one source of which generation is shown. */
export type GenerationSnapshot = { id: string; text: string; status: StreamStatus }

type Live = GenerationState & { id: string }

const IDLE: GenerationState = { text: '', status: 'idle' }

/**
 * Once the loader has the finished row, the row is the text; until then, the event stream's.
 * `startedHere`: this page started the generation, so its end is reported even when it came before the
 * loader read the row (a short draft can), once.
 */
export function useGeneration(
  snapshot: GenerationSnapshot | null,
  {
    onFinish,
    streamPath = '/resources/generations',
    startedHere = false,
  }: { onFinish: (status: FinishedStatus) => void; streamPath?: string; startedHere?: boolean },
): GenerationState {
  const [live, setLive] = useState<Live | null>(null)
  const id = snapshot?.id ?? null
  const status = snapshot?.status
  const generating = status === 'generating'
  const reported = useRef<string | null>(null)

  useEffect(() => {
    if (!id || !startedHere || !status || status === 'generating' || status === 'idle' || reported.current === id) return
    reported.current = id
    onFinish(status)
  }, [id, startedHere, status]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!id || !generating) return
    const source = new EventSource(`${streamPath}/${encodeURIComponent(id)}`)
    let text = ''
    let note: string | undefined
    const finish = (status: FinishedStatus, finalText: string) => {
      source.close()
      reported.current = id
      setLive({ id, text: finalText, status, note: status === 'failed' ? note : undefined })
      onFinish(status)
    }
    source.addEventListener('delta', (event) => {
      text += JSON.parse((event as MessageEvent).data).text
      setLive({ id, text, status: 'generating', note })
    })
    source.addEventListener('restart', (event) => {
      text = ''
      note = JSON.parse((event as MessageEvent).data).reason
      setLive({ id, text, status: 'generating', note })
    })
    source.addEventListener('done', (event) => {
      const data = JSON.parse((event as MessageEvent).data)
      finish(data.status, data.text)
    })
    source.addEventListener('error', (event) => {
      // A connection error carries no data, and EventSource retries it unless the server refused outright.
      const data = (event as MessageEvent).data
      if (data) note = JSON.parse(data).error
      if (data || source.readyState === EventSource.CLOSED) finish('failed', text)
    })
    return () => source.close()
  }, [id, generating, streamPath]) // eslint-disable-line react-hooks/exhaustive-deps

  if (!snapshot) return IDLE
  // A failure's reason is only in the stream that reported it.
  if (!generating) return { text: snapshot.text, status: snapshot.status, note: live?.id === snapshot.id ? live.note : undefined }
  return live?.id === snapshot.id ? live : { text: snapshot.text, status: 'generating' }
}
