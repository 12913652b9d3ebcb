/** Where a generation or a variant stands, as the page follows it. */
export type StreamStatus = 'idle' | 'generating' | 'complete' | 'stopped' | 'failed'
export type FinishedStatus = Exclude<StreamStatus, 'idle' | 'generating'>
