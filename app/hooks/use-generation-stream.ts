import { useEffect, useState } from 'react'

export type StreamStatus = 'idle' | 'generating' | 'complete' | 'stopped' | 'failed'
export type StreamState = { text: string; status: StreamStatus }

/**
 * Follows a generation over EventSource. A dropped connection reconnects by itself and resumes after
 * the last piece received (Last-Event-ID); `done` carries the authoritative full text.
 */
export function useGenerationStream(
  id: string | null,
  initial: StreamState,
  onFinish: (status: Exclude<StreamStatus, 'idle' | 'generating'>) => void,
): StreamState {
  const [state, setState] = useState(initial)

  useEffect(() => setState(initial), [id]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!id || initial.status !== 'generating') return
    const source = new EventSource(`/resources/generations/${encodeURIComponent(id)}`)
    let text = ''
    const finish = (next: StreamState) => {
      source.close()
      setState(next)
      onFinish(next.status as Exclude<StreamStatus, 'idle' | 'generating'>)
    }
    source.addEventListener('delta', (event) => {
      text += JSON.parse((event as MessageEvent).data).text
      setState({ text, status: 'generating' })
    })
    source.addEventListener('done', (event) => {
      const data = JSON.parse((event as MessageEvent).data)
      finish({ text: data.text, status: data.status })
    })
    source.addEventListener('error', (event) => {
      // A server-sent `error` event carries data; a connection error does not, and EventSource retries
      // it unless the server refused outright (then readyState is CLOSED).
      if ((event as MessageEvent).data || source.readyState === EventSource.CLOSED) finish({ text, status: 'failed' })
    })
    return () => source.close()
  }, [id, initial.status]) // eslint-disable-line react-hooks/exhaustive-deps

  return state
}
