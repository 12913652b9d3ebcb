import { useEffect, useRef } from 'react'

/** Generate is disabled once pressed, which drops its focus: the text being written takes it. */
export function useFocusWhen(condition: boolean) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (condition) ref.current?.focus()
  }, [condition])
  return ref
}
