import { useRouteLoaderData } from 'react-router'
import type { loader as rootLoader } from '~/root'

export function useRootData() {
  const data = useRouteLoaderData<typeof rootLoader>('root')
  if (!data) throw new Error('Root loader data is missing')
  return data
}

export function useContactEmail() {
  return useRootData().contactEmail
}
