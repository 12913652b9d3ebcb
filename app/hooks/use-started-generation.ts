import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'

/** The generation this page's own Generate started: the action redirects to the URL that names it. */
export function useStartedGeneration() {
  const navigation = useNavigation()
  const [startedId, setStartedId] = useState<string | null>(null)
  useEffect(() => {
    if (navigation.state === 'loading' && navigation.formData?.get('intent') === 'generate') {
      setStartedId(new URLSearchParams(navigation.location.search).get('narrative'))
    }
  }, [navigation])
  return startedId
}
