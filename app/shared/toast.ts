/** A message shown for a moment after an answer: the server sets it, the page's Toaster shows it. */
export type ToastType = 'info' | 'success' | 'error' | 'warning'
export type ToastMessage = { message: string; type: ToastType; description?: string }
