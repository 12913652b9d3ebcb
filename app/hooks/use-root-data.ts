import { useRouteLoaderData } from 'react-router'
import type { RootData } from '~/shared/root-data'

export function useRootData() {
  const data = useRouteLoaderData<RootData>('root')
  if (!data) throw new Error('Root loader data is missing')
  return data
}

export function useContactEmail() {
  return useRootData().contactEmail
}
